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
out_file=$PWD/callgrind.out.located
# valgrind 3.19 (Debian 12) cannot read the DWARF 5 the Swift toolchain writes: count a copy without
# debug information (its symbol table still names every function).
work=$(mktemp -d)
BIN=$work/petspot-web
strip --strip-debug -o "$BIN" "$1"
cd "$(dirname "$0")/../.."
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
up_port=$(free_port) port=$(free_port)
python3 scripts/bench/upstream.py --items "$ITEMS" --port "$up_port" --seed 1 2>/dev/null & upstream=$!
server=""
trap 'kill $server $upstream 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fs --max-time 2 "http://127.0.0.1:$up_port/api/health" >/dev/null && break; sleep 0.2; done
valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out_file" \
  "$BIN" --port "$port" --upstream "http://127.0.0.1:$up_port" --public-dir Public --templates-dir Templates \
  --log-level warning --cache-ttl 3600 >/dev/null 2>&1 & server=$!
for _ in $(seq 600); do curl -fs --max-time 5 -o /dev/null "http://127.0.0.1:$port$TARGET?lat=52.2&lng=21.0" && break; sleep 1; done
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
callgrind_control -i on "$server" >/dev/null 2>&1
ask 0
callgrind_control -i off "$server" >/dev/null 2>&1
callgrind_control -d "$server" >/dev/null 2>&1
kill "$server"; wait "$server" 2>/dev/null || true; server=""
mv "$out_file".1 "$out_file"  # the counted part (the dump); what the exit wrote over it was uncounted
total=$(callgrind_annotate "$out_file" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
echo "$TARGET at $ITEMS items: $((total / REQUESTS)) instructions per answer ($REQUESTS answers)"
