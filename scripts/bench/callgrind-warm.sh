#!/usr/bin/env bash
# Instructions per answer of one URL asked again and again (the warm path: a repeated URL answered
# by the server's hook from the response cache, docs/caches.md), counted by callgrind: repeatable
# for the same binary and inputs whatever else the machine is doing.
#
#   scripts/bench/callgrind-warm.sh BINARY [ITEMS] [TARGET] [REQUESTS]   (defaults 5000 /pets 2000)
#
# The server runs under valgrind against scripts/bench/upstream.py with ITEMS items; TARGET is asked
# for 5 times first, uncounted (made, kept at its second sighting, then given by the hook), and until
# its brotli form is kept; then REQUESTS more times on one keep-alive connection with
# `Accept-Encoding: gzip, br` (as browsers send it), counted. Prints the instructions per answer and
# leaves the profile as callgrind.out.warm in the current folder (callgrind_annotate reads it).
set -euo pipefail
ITEMS=${2:-5000} TARGET=${3:-/pets} REQUESTS=${4:-2000}
out_file=$PWD/callgrind.out.warm
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
for _ in $(seq 600); do curl -fs --max-time 5 -o /dev/null "http://127.0.0.1:$port$TARGET" && break; sleep 1; done
ask() {  # ask COUNT: COUNT requests of TARGET on one connection
  python3 - "$port" "$TARGET" "$1" <<'PY'
import http.client, sys
port, target, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
for _ in range(count):
    connection.request("GET", target, headers={"Accept-Encoding": "gzip, br"})
    response = connection.getresponse()
    response.read()
    assert response.status == 200, response.status
PY
}
ask 5
# Until the kept brotli form is there (the whole API list makes it on a background thread, whose
# work would otherwise be counted with the answers).
for _ in $(seq 120); do
  curl -fs --max-time 60 -o /dev/null -D - -H 'Accept-Encoding: gzip, br' "http://127.0.0.1:$port$TARGET" | grep -qi '^content-encoding: br' && break
  sleep 1
done
sleep 2
callgrind_control -i on "$server" >/dev/null 2>&1
ask "$REQUESTS"
callgrind_control -i off "$server" >/dev/null 2>&1
callgrind_control -d "$server" >/dev/null 2>&1
kill "$server"; wait "$server" 2>/dev/null || true; server=""
mv "$out_file".1 "$out_file"  # the counted part (the dump); what the exit wrote over it was uncounted
total=$(callgrind_annotate "$out_file" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
echo "$TARGET at $ITEMS items, warm: $((total / REQUESTS)) instructions per answer ($REQUESTS answers)"
