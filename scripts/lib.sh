# Shared shell helpers for the scripts in this folder (sourced, not run).

# ensure_packages PKG...: installs the Debian packages that are missing (apt-get update once first).
ensure_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  if [ -z "${PETSPOT_APT_UPDATED:-}" ]; then
    $sudo apt-get update -qq
    export PETSPOT_APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The packages every build needs: libmicrohttpd and libvips (photo variants), pkg-config to find them.
ensure_build_packages() {
  ensure_packages libmicrohttpd-dev libvips-dev pkg-config
}
