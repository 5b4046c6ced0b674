#!/usr/bin/env bash
# Interleaved A/B of two release binaries on one generated upstream: warm /pets (or WARM_PATH), then /pets at a
# random location per request, alternating the binaries every DURATION seconds so both see the same
# machine noise. Prints req/s per round; asserts nothing. Every wrk run is bounded; servers stop at the end.
#   bash scripts/bench/interleaved.sh BEFORE_BINARY AFTER_BINARY   (ROUNDS=6 LOCATED_ROUNDS=2 ITEMS=5000 DURATION=4)
#   WARM_PATH=first-details measures the details page of the list's first announcement instead of /pets.
set -u
cd "$(dirname "$0")/../.."
A=$1 B=$2
ROUNDS=${ROUNDS:-6} LOCATED_ROUNDS=${LOCATED_ROUNDS:-2} ITEMS=${ITEMS:-5000} DURATION=${DURATION:-4}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
up=$(free_port) pa=$(free_port) pb=$(free_port)
python3 scripts/bench/upstream.py --items "$ITEMS" --port "$up" --seed 1 2>/dev/null & upstream=$!
trap 'kill $upstream ${sa:-} ${sb:-} 2>/dev/null' EXIT
for _ in $(seq 1 300); do curl -fs --max-time 2 "http://127.0.0.1:$up/api/health" >/dev/null 2>&1 && break; sleep 0.2; done
"$A" --port "$pa" --upstream "http://127.0.0.1:$up" --public-dir Public --templates-dir Templates --log-level warning --cache-ttl 30 >/dev/null 2>&1 & sa=$!
"$B" --port "$pb" --upstream "http://127.0.0.1:$up" --public-dir Public --templates-dir Templates --log-level warning --cache-ttl 30 >/dev/null 2>&1 & sb=$!
for p in $pa $pb; do
  for _ in $(seq 1 300); do [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$p/pets")" = 200 ] && break; sleep 0.1; done
done
rate() { awk '/Requests\/sec/ {print $2}'; }
warm=${WARM_PATH:-/pets}
if [ "$warm" = first-details ]; then
  warm=/pets/$(curl -s "http://127.0.0.1:$pa/api/v1/announcements" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"][0]["id"])')
fi
for round in $(seq 1 "$ROUNDS"); do
  echo "round $round warm $warm: A $(wrk -t2 -c64 -d"${DURATION}"s "http://127.0.0.1:$pa$warm" | rate)" \
       "B $(wrk -t2 -c64 -d"${DURATION}"s "http://127.0.0.1:$pb$warm" | rate)"
done
for round in $(seq 1 "$LOCATED_ROUNDS"); do
  located() { WRK_PATH=/pets wrk -t2 -c64 -d"${DURATION}"s -s scripts/bench/random-location.lua "http://127.0.0.1:$1/pets" | rate; }
  echo "round $round /pets random location: A $(located "$pa") B $(located "$pb")"
done
