#!/usr/bin/env bash
# Writes the settings tables from the settings' declarations (AppConfiguration.settings): docs/settings.md's
# table of every setting (`petspot-web --settings-markdown`) and the README's key settings
# (`petspot-web --key-settings-markdown`). SettingsTableTests and ExecutableTests fail while a committed
# table differs; run this after changing a setting. PETSPOT_BIN: a built petspot-web (default: `swift run`).
set -euo pipefail
cd "$(dirname "$0")/.."
petspot() {
  if [ -n "${PETSPOT_BIN:-}" ]; then "$PETSPOT_BIN" "$@"; else swift run --quiet petspot-web "$@"; fi
}
# replace FILE HEADING TABLE: the first table after the line HEADING (the whole file when empty) becomes TABLE.
replace() {
  TABLE="$3" python3 - "$1" "$2" <<'PY'
import os, sys
path, heading = sys.argv[1], sys.argv[2]
lines = open(path, encoding="utf-8").read().split("\n")
after = lines.index(heading) if heading else 0
start = next(i for i in range(after, len(lines)) if lines[i].startswith("| flag | environment |"))
end = next(i for i in range(start, len(lines)) if not lines[i].startswith("|"))
lines[start:end] = os.environ["TABLE"].split("\n")
open(path, "w", encoding="utf-8").write("\n".join(lines))
PY
  echo "$1: settings table written"
}
replace docs/settings.md "" "$(petspot --settings-markdown)"
replace README.md "## Key settings" "$(petspot --key-settings-markdown)"
