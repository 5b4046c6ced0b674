#!/usr/bin/env bash
# Creates, once, the venv of the mail tests and prints its path: `.venv-mail/` in the repository root
# (git-ignored; MAIL_VENV overrides it) with the pinned tools of scripts/mail/requirements.txt
# (aiosmtpd for scripts/mail/smtp-sink.py, dkimpy to verify DKIM signatures). It is made again only
# when the requirements change (their hash is stamped in the venv), like browser-tests/run.sh's venv.
#
#   venv="$(scripts/mail/venv.sh)" && export PETSPOT_MAIL_PYTHON="$venv/bin/python"
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
venv="${MAIL_VENV:-$repo/.venv-mail}"

stamp="$venv/.requirements.sha"
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  # Progress goes to stderr: stdout carries only the venv's path.
  echo "venv.sh: creating $venv" >&2
  python3 -m venv "$venv" >&2 \
    && "$venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements.txt" >&2 \
    && echo "$want" > "$stamp" \
    || { echo "venv.sh: could not create the venv $venv" >&2; exit 1; }
fi
echo "$venv"
