#!/usr/bin/env bash
# Browser and standards checks (docs/platform.md): real Chromium, Nu Html Checker, axe-core; Atom feeds
# against RFC 4287's RELAX NG schema (jing) and through feedparser.
#
#   PETSPOT_BIN=.build/debug/petspot-web browser-tests/run.sh [pytest args…]
#   PETSPOT_BIN=… browser-tests/run.sh screenshots      (writes docs/screenshots/*.png)
#
# Builds nothing: $PETSPOT_BIN (default .build/debug/petspot-web, relative to the repository root)
# must exist. Installs Debian's chromium + chromium-driver when missing, creates the venv
# $BROWSER_VENV (default .venv-browser/ in the repository root, git-ignored) with the pinned
# requirements, runs the suite and ends with the line `browser: N passed, M failed`.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
cd "$repo"

export PETSPOT_BIN="${PETSPOT_BIN:-.build/debug/petspot-web}"
venv="${BROWSER_VENV:-$repo/.venv-browser}"

if [ ! -x "$PETSPOT_BIN" ] && [ ! -x "$repo/$PETSPOT_BIN" ]; then
  echo "run.sh: server binary '$PETSPOT_BIN' not found; build it (swift build) or set PETSPOT_BIN" >&2
  echo "browser: 0 passed, 1 failed"
  exit 1
fi

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  echo "run.sh: installing chromium and chromium-driver" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null \
    || { echo "run.sh: could not install chromium" >&2; echo "browser: 0 passed, 1 failed"; exit 1; }
fi
if ! command -v java >/dev/null 2>&1; then
  echo "run.sh: installing a Java runtime for the Nu Html Checker" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq default-jre-headless >/dev/null \
    || { echo "run.sh: could not install java" >&2; echo "browser: 0 passed, 1 failed"; exit 1; }
fi

if ! command -v jing >/dev/null 2>&1; then
  echo "run.sh: installing jing for the Atom feed's RELAX NG schema (test_feeds.py)" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq jing >/dev/null \
    || { echo "run.sh: could not install jing" >&2; echo "browser: 0 passed, 1 failed"; exit 1; }
fi
if ! command -v zbarimg >/dev/null 2>&1 || ! command -v pdfinfo >/dev/null 2>&1; then
  echo "run.sh: installing zbar-tools and poppler-utils (the poster's QR code and page count)" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq zbar-tools poppler-utils >/dev/null \
    || { echo "run.sh: could not install zbar-tools" >&2; echo "browser: 0 passed, 1 failed"; exit 1; }
fi

stamp="$venv/.requirements.sha"
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  python3 -m venv "$venv" \
    && "$venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements.txt" \
    && echo "$want" > "$stamp" \
    || { echo "run.sh: could not create the venv $venv" >&2; echo "browser: 0 passed, 1 failed"; exit 1; }
fi

if [ "${1:-}" = "screenshots" ]; then
  shift
  export PETSPOT_CHROMIUM="${PETSPOT_CHROMIUM:-$(command -v chromium)}"
  exec "$venv/bin/python" "$here/screenshots.py" "$@"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export BROWSER_COUNTS_FILE="$work/counts.json"
export BROWSER_TESTS_TMP="$work"
export PETSPOT_CHROMIUM="${PETSPOT_CHROMIUM:-$(command -v chromium)}"

(cd "$here" && timeout 600 "$venv/bin/python" -m pytest -q -rfE "$@")
status=$?

passed=0; failed=0
if [ -s "$BROWSER_COUNTS_FILE" ]; then
  read -r passed failed < <("$venv/bin/python" -c 'import json,sys; c=json.load(open(sys.argv[1])); print(c["passed"], c["failed"])' "$BROWSER_COUNTS_FILE")
fi
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1  # pytest itself failed (collection error, timeout, …)
fi
if [ "$status" -ne 0 ]; then
  for log in "$work"/petspot-web-*.log; do
    [ -f "$log" ] && { echo "--- $(basename "$log") (last 20 lines)"; tail -n 20 "$log"; }
  done
fi
echo "browser: $passed passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
