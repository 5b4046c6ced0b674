#!/usr/bin/env bash
# The API's OpenAPI document (docs/openapi.md): docs/openapi.yaml is written by hand; the server serves
# Public/api/openapi.json, its JSON form, made here and committed with it.
#
#   scripts/openapi.sh           writes Public/api/openapi.json from docs/openapi.yaml
#   scripts/openapi.sh --check   fails when Public/api/openapi.json is not docs/openapi.yaml's JSON form
#
# Python's PyYAML in the venv $API_VENV (default .venv-api/, made by api-tests/venv.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$(api-tests/venv.sh)"
mode=${1:-write}
"$venv/bin/python" - "$mode" <<'PY'
import json, sys, yaml
with open("docs/openapi.yaml", encoding="utf-8") as f:
    document = yaml.safe_load(f)
text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
target = "Public/api/openapi.json"
if sys.argv[1] == "--check":
    try:
        current = open(target, encoding="utf-8").read()
    except FileNotFoundError:
        current = ""
    if current != text:
        sys.exit(f"{target} is not docs/openapi.yaml's JSON form: run scripts/openapi.sh")
    print(f"{target} agrees with docs/openapi.yaml")
else:
    import os
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {target}")
PY
