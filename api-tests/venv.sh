#!/usr/bin/env bash
# Prints the path of the API checks' venv ($API_VENV, default .venv-api/ in the repository root,
# git-ignored), creating it with api-tests/requirements.txt when missing or out of date.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${API_VENV:-$(cd "$here/.." && pwd)/.venv-api}"
stamp="$venv/.requirements.sha"
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements.txt" >&2
  echo "$want" > "$stamp"
fi
echo "$venv"
