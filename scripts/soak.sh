#!/usr/bin/env bash
# Soak: a mixed load at 256 connections for MINUTES (default 10) while the upstream cycles through
# normal, slow and failing phases (docs/hardening.md). Prints figures; asserts nothing.
#
#   scripts/soak.sh [MINUTES]
#
# Upstream: scripts/bench/upstream.py, 5,000 generated items and 20 generated photos, with
# --phases "ok:60,slow:30,fail:30" (slow = 3 s per answer, past our 1 s upstream timeout; fail = 503).
# Server: release build (or PETSPOT_BIN), --cache-ttl 5 --upstream-timeout 1, the default
# --stale-max (600 s, longer than a slow + failing stretch, so lists stay served from the snapshot), and
# --max-connections-per-address 0 (all the load comes from one address).
# Load: wrk -t2 -c256 with scripts/bench/soak.lua (pages, located pages, details, the JSON API,
# photos, 404s, bad parameters, a static file; each answer counted under its request's kind).
# Samples RSS and open descriptors every 10 s; prints statuses by kind, socket errors, RSS after a
# one-minute warm-up and at the end (growth %), descriptors at start, end and 5 s after the load.
# Targets (10 minutes): only expected statuses per kind, no socket errors beyond what the upstream
# phases explain, RSS growth <= 10 % after warm-up, descriptors back to the baseline.
#
# SIGTERM=1 also sends SIGTERM to the server 20 s before the end, under load, and reports its exit
# status and how long it took (graceful shutdown under load; the Swift test ShutdownUnderLoadTests checks it).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_build_packages
ensure_packages wrk curl python3 iproute2

MINUTES=${1:-${MINUTES:-10}}
seconds=$(awk -v m="$MINUTES" 'BEGIN { printf "%d", m * 60 }')
work=$(mktemp -d)
if [ -z "${PETSPOT_BIN:-}" ]; then
  swift build -c release --scratch-path .build-release --product petspot-web >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
  PETSPOT_BIN=.build-release/release/petspot-web
fi
ulimit -n "$(ulimit -Hn)"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
cleanup() { kill "${server:-}" "${upstream:-}" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

venv=.build-bench/venv  # Pillow for the photo fixtures, as scripts/bench.sh makes it
if ! "$venv/bin/python" -c 'import PIL' 2>/dev/null; then
  python3 -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check -r browser-tests/requirements.txt >/dev/null
fi
"$venv/bin/python" scripts/photo_fixtures.py "$work/photos" --count 20 --megapixels 2 >/dev/null
up_port=$(free_port)
python3 scripts/bench/upstream.py --items 5000 --port "$up_port" --photos "$work/photos" \
  --phases "ok:60,slow:30,fail:30" --slow-seconds 3 2>"$work/upstream.log" &
upstream=$!
for _ in $(seq 1 100); do curl -fs --max-time 2 "http://127.0.0.1:$up_port/api/health" >/dev/null 2>&1 && break; sleep 0.2; done
ids=$(curl -fs "http://127.0.0.1:$up_port/api/v1/announcements" | python3 -c 'import json,sys; d=json.load(sys.stdin)["data"]; print(",".join(i["id"] for i in d[:200]))')
port=$(free_port)
"$PETSPOT_BIN" --port "$port" --upstream "http://127.0.0.1:$up_port" --public-dir Public --templates-dir Templates \
  --log-level warning --cache-ttl 5 --upstream-timeout 1 --max-connections-per-address 0 >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -fs --max-time 2 -o /dev/null "http://127.0.0.1:$port/pets" && break; sleep 0.2; done

rss() { awk '/VmRSS/ { print int($2 / 1024) }' "/proc/$server/status" 2>/dev/null || echo 0; }
fds() { ls "/proc/$server/fd" 2>/dev/null | wc -l; }
fd_start=$(fds)
echo "== soak: ${MINUTES} min, 256 connections, upstream phases ok 60 s / slow 30 s / fail 30 s; server pid $server"
echo "   at start: RSS $(rss) MB, $fd_start open descriptors"

IDS="$ids" timeout $((seconds + 60)) wrk -t2 -c256 -d"${seconds}s" --timeout 10s -s scripts/bench/soak.lua "http://127.0.0.1:$port" >"$work/wrk.txt" 2>&1 &
load=$!
rss_warm=""
: >"$work/samples.txt"
elapsed=0
sigterm_at=$(( seconds - 20 ))
while kill -0 "$load" 2>/dev/null; do
  sleep 10; elapsed=$((elapsed + 10))
  phase=$(curl -fs --max-time 2 "http://127.0.0.1:$up_port/__stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["phase"])' 2>/dev/null || echo "?")
  echo "$elapsed $(rss) $(fds) $phase" >>"$work/samples.txt"
  [ "$elapsed" -eq 60 ] && rss_warm=$(rss)
  if [ "${SIGTERM:-0}" = 1 ] && [ "$elapsed" -ge "$sigterm_at" ] && kill -0 "$server" 2>/dev/null && [ -z "${term_sent:-}" ]; then
    term_sent=$(date +%s.%N); kill -TERM "$server"
    wait "$server" && status=0 || status=$?
    echo "   SIGTERM under load: exit status $status after $(awk -v s="$term_sent" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"
  fi
done
wait "$load" || true
rss_end=$(rss); fd_end=$(fds)
sleep 5
fd_after=$(fds)
echo "== samples (elapsed s, RSS MB, descriptors, upstream phase), every 10 s:"
awk '{ printf "   %4d s  %4d MB  %5d fds  %s\n", $1, $2, $3, $4 }' "$work/samples.txt" | awk 'NR % 3 == 1'
echo "== answers by kind and status"
grep '^status ' "$work/wrk.txt" | sed 's/^status /   /'
grep -E '^(errors|requests) ' "$work/wrk.txt" | sed 's/^/   /'
grep -E 'Latency|Requests/sec' "$work/wrk.txt" | sed 's/^ */   /'
if [ -n "$rss_warm" ] && [ "${SIGTERM:-0}" != 1 ]; then
  echo "== RSS after warm-up $rss_warm MB, at the end $rss_end MB: growth $(awk -v a="$rss_warm" -v b="$rss_end" 'BEGIN { printf "%.1f", (b - a) * 100 / a }') %"
fi
upstream_sockets=$(ss -tnp 2>/dev/null | grep "pid=$server," | grep -c "127.0.0.1:$up_port" || true)
echo "== descriptors: start $fd_start, end of load $fd_end, 5 s later $fd_after" \
  "(of which $upstream_sockets keep-alive connections to the upstream in the client's pool)"
echo "== server log: $(wc -l <"$work/server.log") lines at warning and above; the last:"
tail -3 "$work/server.log" | cut -c1-200 | sed 's/^/   /'
