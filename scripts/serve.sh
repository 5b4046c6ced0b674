#!/usr/bin/env bash
# Runs PetSpot Web on http://127.0.0.1:8080 against the embedded demo upstream (pass flags to
# change that, e.g. --upstream http://localhost:3000; see --help). Installs libmicrohttpd-dev and libvips-dev first
# when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_build_packages
exec swift run petspot-web "$@"
