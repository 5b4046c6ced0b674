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
source "$(dirname "$0")/callgrind-lib.sh"
callgrind_start "$1" "$ITEMS" "$PWD/callgrind.out.warm" "$TARGET"
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
callgrind_count ask "$REQUESTS"
echo "$TARGET at $ITEMS items, warm: $((total / REQUESTS)) instructions per answer ($REQUESTS answers)"
