#!/usr/bin/env bash
# Writes the settings table of docs/settings.md from the settings' declarations
# (`petspot-web --settings-markdown`, made from AppConfiguration.settings). SettingsTableTests and
# ExecutableTests fail while the committed table differs; run this after changing a setting.
# PETSPOT_BIN: a built petspot-web (default: `swift run petspot-web`).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${PETSPOT_BIN:-}" ]; then
  table=$("$PETSPOT_BIN" --settings-markdown)
else
  table=$(swift run --quiet petspot-web --settings-markdown)
fi
TABLE="$table" python3 - docs/settings.md <<'PY'
import os, sys
path = sys.argv[1]
lines = open(path, encoding="utf-8").read().split("\n")
start = next(i for i, line in enumerate(lines) if line.startswith("| flag | environment |"))
end = next(i for i in range(start, len(lines)) if not lines[i].startswith("|"))
lines[start:end] = os.environ["TABLE"].split("\n")
open(path, "w", encoding="utf-8").write("\n".join(lines))
PY
echo "docs/settings.md: settings table written"
