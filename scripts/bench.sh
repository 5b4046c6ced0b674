#!/usr/bin/env bash
# Loopback benchmark of a release build (bounded: DURATION seconds per endpoint, default 10):
# req/s with wrk -c64 for /healthz, a 20 KB static file, the JSON list (cache warm) and the list
# page, plus the server's CPU time per request (from /proc, utime+stime) as the rendering cost.
# Also prints the domain benchmark (decode + validate + sort of 5,000 items).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_build_packages
ensure_packages wrk
DURATION=${DURATION:-10}
SCRATCH=.build-release
swift build -c release --scratch-path "$SCRATCH" --product petspot-web >/dev/null
BIN="$SCRATCH/release/petspot-web"

work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
cp -r Public "$work/Public"
head -c 20480 /dev/zero | tr '\0' 'x' > "$work/Public/bench-20k.txt"
port=$((20000 + RANDOM % 20000))
"$BIN" --port "$port" --public-dir "$work/Public" --log-level warning --cache-ttl 3600 &
server=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fs "http://127.0.0.1:$port/pets" >/dev/null   # warm the cache

ticks_per_second=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }

printf '%-28s %12s %16s\n' endpoint "req/s" "CPU µs/request"
for path in /healthz /static/bench-20k.txt /api/v1/announcements "/pets" "/pets?page=1&sort=oldest"; do
  before=$(cpu_ticks)
  out=$(wrk -t2 -c64 -d"${DURATION}s" "http://127.0.0.1:$port$path")
  after=$(cpu_ticks)
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  total=$(echo "$out" | awk '/requests in/ {print $1}')
  cpu_us=$(awk -v d=$((after - before)) -v t="$ticks_per_second" -v n="$total" 'BEGIN { printf "%.1f", d / t * 1e6 / n }')
  printf '%-28s %12s %16s\n' "$path" "$rps" "$cpu_us"
done
echo "(CPU per request is the whole server process — HTTP, routing, rendering — measured on the same 2-core machine that runs wrk.)"

echo
echo "== domain benchmark"
swift run -c release --scratch-path "$SCRATCH" domain-benchmark
