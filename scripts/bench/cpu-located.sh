#!/usr/bin/env bash
# Server CPU per located answer, two binaries interleaved: scripts/bench/cpu-per-answer.sh's method (user +
# system CPU from /proc/PID/stat around a bounded wrk run, so another process's load costs ours no CPU) on
# /pets at a random location per request (scripts/bench/random-location.lua), A and B alternately. Prints
# microseconds per answer per round; asserts nothing. Loopback only; everything it starts stops at the end.
#   bash scripts/bench/cpu-located.sh BEFORE_BINARY AFTER_BINARY     (ROUNDS=4 SECS=5 ITEMS=5000)
set -euo pipefail
cd "$(dirname "$0")/../.."
A=$1 B=$2 ROUNDS=${ROUNDS:-4} SECS=${SECS:-5} ITEMS=${ITEMS:-5000}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
up=$(free_port)
python3 scripts/bench/upstream.py --items "$ITEMS" --port "$up" --seed 1 2>/dev/null & upstream=$!
trap 'kill $upstream ${sa:-} ${sb:-} 2>/dev/null || true' EXIT
for _ in $(seq 300); do curl -fs --max-time 2 "http://127.0.0.1:$up/api/health" >/dev/null && break; sleep 0.2; done
pa=$(free_port); pb=$(free_port)
"$A" --port $pa --upstream "http://127.0.0.1:$up" --public-dir Public --templates-dir Templates --log-level warning --cache-ttl 600 >/dev/null 2>&1 & sa=$!
"$B" --port $pb --upstream "http://127.0.0.1:$up" --public-dir Public --templates-dir Templates --log-level warning --cache-ttl 600 >/dev/null 2>&1 & sb=$!
for p in $pa $pb; do for _ in $(seq 300); do [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$p/pets")" = 200 ] && break; sleep 0.1; done; done
ticks=$(getconf CLK_TCK)
measure() { # PID PORT
  read -r u0 s0 < <(awk '{print $14, $15}' "/proc/$1/stat")
  out=$(WRK_PATH=/pets wrk -t2 -c64 -d"${SECS}s" -s scripts/bench/random-location.lua "http://127.0.0.1:$2/pets")
  read -r u1 s1 < <(awk '{print $14, $15}' "/proc/$1/stat")
  n=$(awk '/ requests in / {print $1}' <<<"$out")
  awk -v c=$((u1 - u0 + s1 - s0)) -v n="$n" -v t="$ticks" 'BEGIN { printf "%.2f us/answer (%d)", c / t / n * 1e6, n }'
}
for r in $(seq "$ROUNDS"); do echo "round $r located: A $(measure $sa $pa)  B $(measure $sb $pb)"; done
