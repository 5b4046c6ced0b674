#!/usr/bin/env bash
# The heap of our server under heaptrack at N items (docs/performance.md "Memory"): a generated
# upstream, then 6 s each of random-location /pets, the API list, random-location /pets.atom and
# random-location gzip /pets, then a snapshot refresh under located load (the upstream's list gets a
# new ETag; TTL + 5 s), then SIGKILL so what was live is reported as leaked.
#   scripts/bench/heap.sh BINARY [ITEMS=50000] [OUT=.build-bench/heap]
# Prints heaptrack_print's summary: "peak heap memory consumption" (the refresh included) and
# "total memory leaked" (live at the end). Interleave two binaries to compare them.
set -euo pipefail
bin=$1
items=${2:-50000}
out=${3:-.build-bench/heap}
ttl=${TTL:-10}
mkdir -p "$(dirname "$out")"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
up_port=$(free_port)
port=$(free_port)
python3 scripts/bench/upstream.py --items "$items" --port "$up_port" --seed 1 2>/dev/null &
upstream=$!
trap 'kill "$upstream" 2>/dev/null || true' EXIT
until curl -fs --max-time 2 "http://127.0.0.1:$up_port/api/health" >/dev/null 2>&1; do sleep 0.2; done
rm -f "$out".*
heaptrack -o "$out" "$bin" --port "$port" --upstream "http://127.0.0.1:$up_port" --public-dir Public \
  --templates-dir Templates --log-level warning --cache-ttl "$ttl" >/dev/null 2>&1 &
until curl -fs --max-time 60 -o /dev/null "http://127.0.0.1:$port/pets"; do sleep 0.5; done
load() {  # load PATH [lua] [extra wrk arguments…]
  local path=$1 lua=${2:-}
  shift; shift || true
  if [ -n "$lua" ]; then WRK_PATH=$path wrk -t2 -c64 -d6s "$@" -s scripts/bench/random-location.lua "http://127.0.0.1:$port" >/dev/null
  else wrk -t2 -c64 -d6s "$@" "http://127.0.0.1:$port$path" >/dev/null; fi
}
load /pets lua
load /api/v1/announcements
load /pets.atom lua
load /pets lua -H 'Accept-Encoding: gzip'
curl -fs --max-time 10 -o /dev/null "http://127.0.0.1:$up_port/__bump" || true
WRK_PATH=/pets wrk -t2 -c64 -d$((ttl + 5))s -s scripts/bench/random-location.lua "http://127.0.0.1:$port" >/dev/null
server=$(pgrep -f -n -- "--port $port --upstream")
echo "RSS before SIGKILL: $(awk '/^VmRSS/ {print int($2 / 1024)}' "/proc/$server/status") MB (under heaptrack)"
kill -9 "$server"
sleep 5
file=$(ls "$out".* | head -1)
heaptrack_print -f "$file" 2>/dev/null | grep -E 'peak heap memory consumption|total memory leaked|calls to allocation'
