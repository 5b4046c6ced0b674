#!/usr/bin/env bash
# Server CPU per answer: user and system microseconds our server spends per request of one URL,
# read from /proc/PID/stat around a bounded wrk run (loopback only). Less noisy than req/s on a
# shared 2-core machine, because another process's load slows both but costs ours no CPU.
#
#   scripts/bench/cpu-per-answer.sh BINARY [PATH] [SECONDS]     (PATH default /pets, SECONDS 6)
#
# The server runs against scripts/bench/upstream.py (38 items) with warnings-only logging; PATH
# is requested four times first, so a warm page is answered from the kept answers.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=$1 TARGET=${2:-/pets} SECONDS_RUN=${3:-6}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
up_port=$(free_port) port=$(free_port)
python3 scripts/bench/upstream.py --items 38 --port "$up_port" --seed 1 2>/dev/null & upstream=$!
server=""
trap 'kill $server $upstream 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -fs --max-time 2 "http://127.0.0.1:$up_port/api/health" >/dev/null && break; sleep 0.2; done
"$BIN" --port "$port" --upstream "http://127.0.0.1:$up_port" --public-dir Public --templates-dir Templates \
  --log-level warning --cache-ttl 600 >/dev/null 2>&1 & server=$!
for _ in $(seq 100); do curl -fs --max-time 2 -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
for _ in 1 2 3 4; do curl -fs --max-time 10 -o /dev/null "http://127.0.0.1:$port$TARGET"; done
ticks=$(getconf CLK_TCK)
read -r user0 system0 < <(awk '{print $14, $15}' "/proc/$server/stat")
out=$(timeout $((SECONDS_RUN + 30)) wrk -t2 -c64 -d"${SECONDS_RUN}s" "http://127.0.0.1:$port$TARGET")
read -r user1 system1 < <(awk '{print $14, $15}' "/proc/$server/stat")
requests=$(awk '/ requests in / {print $1}' <<<"$out")
rate=$(awk '/^Requests\/sec/ {printf "%.0f", $2}' <<<"$out")
awk -v u=$((user1 - user0)) -v s=$((system1 - system0)) -v n="$requests" -v t="$ticks" -v r="$rate" -v p="$TARGET" \
  'BEGIN { printf "%s: user %.2f us, system %.2f us per answer (%d answers, %s req/s)\n", p, u / t / n * 1e6, s / t / n * 1e6, n, r }'
