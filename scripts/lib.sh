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

# The packages every build needs: libmicrohttpd and libvips (photo variants), libbrotli and zlib
# (the br and gzip content codings), pkg-config to find them; and the map libraries the server
# reads at startup (the map's Leaflet and markercluster).
ensure_build_packages() {
  ensure_packages libmicrohttpd-dev libvips-dev libbrotli-dev zlib1g-dev pkg-config
  ensure_packages libqrencode-dev  # the poster's QR code (docs/poster.md)
  ensure_packages libcurl4-openssl-dev  # SMTP delivery of the mail alerts (docs/mail.md)
  ensure_map_packages
}

# The browser libraries of the map, served by us from where Debian installs them (/usr/share/javascript).
ensure_map_packages() {
  ensure_packages libjs-leaflet libjs-leaflet.markercluster
}
