#!/usr/bin/env bash
# Server CPU per located answer, two binaries interleaved: scripts/bench/cpu-per-answer.sh's method (user +
# system CPU from /proc/PID/stat around a bounded wrk run, so another process's load costs ours no CPU) on
# TARGET at a random location per request (scripts/bench/random-location.lua), A and B alternately, the one
# that goes first swapping each round (on this machine whoever runs first in a pair tends to do better).
# Prints microseconds per answer per round, then the mean of B − A over the rounds with its standard error:
# a difference of a microsecond or two is below the rounds' own spread but not below that error.
# Asserts nothing. Loopback only; everything it starts stops at the end.
#   bash scripts/bench/cpu-located.sh BEFORE_BINARY AFTER_BINARY
#   (ROUNDS=4 SECS=5 ITEMS=5000 TARGET=/pets; TARGET=/pets.atom for the located feed)
set -euo pipefail
cd "$(dirname "$0")/../.."
A=$1 B=$2 ROUNDS=${ROUNDS:-4} SECS=${SECS:-5} ITEMS=${ITEMS:-5000} TARGET=${TARGET:-/pets}
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
run() { # PORT SECONDS SEED: the random-location load; prints wrk's output
  WRK_SEED=$3 WRK_PATH=$TARGET wrk -t2 -c64 -d"$2s" -s scripts/bench/random-location.lua "http://127.0.0.1:$1$TARGET"
}
measure() { # PID PORT SEED: microseconds of CPU per answer
  read -r u0 s0 < <(awk '{print $14, $15}' "/proc/$1/stat")
  out=$(run "$2" "$SECS" "$3")
  read -r u1 s1 < <(awk '{print $14, $15}' "/proc/$1/stat")
  n=$(awk '/ requests in / {print $1}' <<<"$out")
  awk -v c=$((u1 - u0 + s1 - s0)) -v n="$n" -v t="$ticks" 'BEGIN { printf "%.2f", c / t / n * 1e6 }'
}
# Both first make the cards or entries a located answer keeps (every item of the snapshot is soon shown).
run $pa 4 999 >/dev/null; run $pb 4 999 >/dev/null
differences=()
for r in $(seq "$ROUNDS"); do
  if [ $((r % 2)) = 1 ]; then a=$(measure $sa $pa $r); b=$(measure $sb $pb $r); else b=$(measure $sb $pb $r); a=$(measure $sa $pa $r); fi
  echo "round $r $TARGET: A $a us/answer  B $b us/answer"
  differences+=("$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')")
done
printf '%s\n' "${differences[@]}" | awk '{ n++; s += $1; q += $1 * $1 }
  END { m = s / n; e = n > 1 ? sqrt((q - n * m * m) / (n - 1) / n) : 0; printf "B - A: %+.2f us/answer, standard error %.2f (%d rounds)\n", m, e, n }'
