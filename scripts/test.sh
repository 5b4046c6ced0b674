#!/usr/bin/env bash
# Runs every test: that every file, section and Swift type the documents and comments name exists
# (scripts/check-references.py, docs/testing.md "References"), the Swift unit and integration tests (swift test), the API contract checks (the
# OpenAPI document served and current, schemathesis against the running server: docs/openapi.md), then
# the real-browser and standards checks (headless Chromium, Nu Html Checker, axe-core). Installs what it needs when
# missing (Debian packages; Python tools in a venv). Exits non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

timings=()
step() { # step NAME COMMAND...: runs a step and records its wall time
  local name=$1; shift
  local started=$SECONDS
  echo "== $name"
  "$@"
  timings+=("$name: $((SECONDS - started)) s")
}

# PostgreSQL (Debian's postgresql): the throwaway database of scripts/lib/postgres.sh, for the
# write store's tests and scripts/scale-out.sh (docs/scale-out.md).
install_packages() {
  ensure_build_packages
  ensure_packages postgresql
}
step "install build packages" install_packages
step "references in docs and comments" python3 scripts/check-references.py
# Raw memory only in the C-calling files and the listed ones (docs/style.md "Confine unsafe code").
step "raw memory where it may be" python3 scripts/check-unsafe.py
step "swift build (debug, with tests)" swift build --build-tests
# The mail tests' Python (aiosmtpd for scripts/mail/smtp-sink.py, dkimpy): MailDeliveryTests fail without it (docs/mail.md).
mail_venv="$(scripts/mail/venv.sh)"
export PETSPOT_MAIL_PYTHON="$mail_venv/bin/python"
step "swift test" swift test --skip-build --no-parallel
step "API contract checks" env PETSPOT_BIN="$(swift build --show-bin-path)/petspot-web" api-tests/run.sh
if [ -x browser-tests/run.sh ]; then
  step "browser and standards checks" env PETSPOT_BIN="$(swift build --show-bin-path)/petspot-web" browser-tests/run.sh
fi
echo "== wall time per part"
printf '   %s\n' "${timings[@]}"
