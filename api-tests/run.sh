#!/usr/bin/env bash
# The API contract checks (docs/openapi.md): the served OpenAPI document (same as docs/openapi.yaml,
# valid for openapi-spec-validator, cacheable), its JSON form in Public/ current, and schemathesis with
# every check against the running server on its demo upstream. Builds nothing: $PETSPOT_BIN (default
# .build/debug/petspot-web) must exist. Creates the venv .venv-api/ (api-tests/venv.sh) and ends with
# the line `api: N passed, M failed`.
#
#   PETSPOT_BIN=.build/debug/petspot-web api-tests/run.sh [pytest args…]
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
cd "$repo"
export PETSPOT_BIN="${PETSPOT_BIN:-.build/debug/petspot-web}"
venv="$("$here/venv.sh")" || { echo "api-tests: could not create the venv"; echo "api: 0 passed, 1 failed"; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export API_TESTS_TMP="$work"
failed=0
scripts/openapi.sh --check || failed=1
scripts/openapi-client.sh --check || failed=1
(cd "$here" && timeout 900 "$venv/bin/python" -m pytest -q -rfE -p no:cacheprovider --junitxml="$work/junit.xml" "$@")
status=$?
read -r passed pytest_failed < <("$venv/bin/python" - "$work/junit.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except Exception:
    print(0, 1); sys.exit()
suite = root if root.tag == "testsuite" else root.find("testsuite")
tests, failures, errors, skipped = (int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
print(tests - failures - errors - skipped, failures + errors)
PY
)
failed=$((failed + pytest_failed))
if [ "$status" -ne 0 ]; then
  [ "$pytest_failed" -eq 0 ] && failed=$((failed + 1))
  for log in "$work"/petspot-web-*.log; do
    [ -f "$log" ] && { echo "--- $(basename "$log") (last 20 lines)"; tail -n 20 "$log"; }
  done
fi
echo "api: $passed passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
