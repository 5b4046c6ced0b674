#!/usr/bin/env bash
# Instructions per answer of random-location requests, counted by callgrind: repeatable for the same
# binary and inputs whatever else the machine is doing, where req/s on a shared 2-core machine is not
# (docs/performance.md "Located pages").
#
#   scripts/bench/callgrind-located.sh BINARY [ITEMS] [PATH] [REQUESTS]   (defaults 50000 /pets 400)
#
# The server runs under valgrind against scripts/bench/upstream.py with ITEMS items; the snapshot is
# loaded and PATH at one location asked for first, uninstrumented; then REQUESTS requests of PATH at
# random points of Poland (a fixed seed, so two binaries answer the same requests) are counted.
# Prints the instructions per answer and leaves the profile as callgrind.out.located in the
# current folder (callgrind_annotate reads it).
set -euo pipefail
ITEMS=${2:-50000} TARGET=${3:-/pets} REQUESTS=${4:-400}
source "$(dirname "$0")/callgrind-lib.sh"
callgrind_start "$1" "$ITEMS" "$PWD/callgrind.out.located" "$TARGET?lat=52.2&lng=21.0"
ask() {  # ask SHIFT: the REQUESTS requests, each point moved north by SHIFT degrees
  python3 - "$port" "$TARGET" "$REQUESTS" "$1" <<'PY'
import http.client, random, sys
port, target, count, shift = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
rng = random.Random(1)
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
for _ in range(count):
    lat, lng = 49.0 + rng.random() * 5.8 + shift, 14.1 + rng.random() * 10.0
    connection.request("GET", f"{target}?lat={lat:.4f}&lng={lng:.4f}")
    response = connection.getresponse()
    response.read()
    assert response.status == 200, response.status
PY
}
# First, uncounted, the same points 110 m north and 110 m south (the feed rounds its origin to
# 110 m, so these are other URLs): the cards and entries the counted points show are then made and
# kept, as after a few seconds of a benchmark, while each counted URL is still asked for the first
# time (a URL asked for twice would be kept by the page cache and served from it).
ask 0.001
ask -0.001
callgrind_count ask 0
echo "$TARGET at $ITEMS items: $((total / REQUESTS)) instructions per answer ($REQUESTS answers)"
