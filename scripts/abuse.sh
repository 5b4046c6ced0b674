#!/usr/bin/env bash
# Connection abuse from one address while a visitor on another is timed (docs/hardening.md).
# Prints figures; asserts nothing.
#
# Starts the server (release build, or PETSPOT_BIN) on the embedded demo upstream with its default
# limits, then runs scripts/bench/abuse.py twice, each for DURATION seconds:
#   1. trickle: 1,500 connections from 127.0.0.1, each sending one header line every 5 s, never
#      finishing its headers (slowloris);
#   2. idle: 3,000 connections from 127.0.0.1 that send nothing;
# while a visitor on 127.0.0.2 asks for /healthz and /pets once a second on fresh connections.
# Target: the visitor gets a 200 within 2 s at least 9 times out of 10 for each path.
# Then prints the server's refusal and cut counters, its log lines about them, and its open
# descriptors, to show refusals are logged without a line each.
#
# Environment: DURATION=30 (s per phase)  TRICKLE=1500  IDLE=3000  PETSPOT_BIN=path  EXTRA_FLAGS=""
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_build_packages
ensure_packages python3 curl

DURATION=${DURATION:-30}
TRICKLE=${TRICKLE:-1500}
IDLE=${IDLE:-3000}
work=$(mktemp -d)
if [ -z "${PETSPOT_BIN:-}" ]; then
  swift build -c release --scratch-path .build-release --product petspot-web >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
  PETSPOT_BIN=.build-release/release/petspot-web
fi
ulimit -n "$(ulimit -Hn)"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# The server listens on all loopback addresses so 127.0.0.2 can reach it.
"$PETSPOT_BIN" --host 0.0.0.0 --port "$port" --public-dir Public --templates-dir Templates ${EXTRA_FLAGS:-} >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
curl -fsS "http://127.0.0.1:$port/pets" >/dev/null  # the snapshot is in memory

fds() { ls /proc/$server/fd | wc -l; }
echo "== server pid $server on port $port; open descriptors at start: $(fds)"
echo "== phase 1: $TRICKLE slow-header connections from 127.0.0.1 (a line every 5 s), ${DURATION}s"
python3 scripts/bench/abuse.py --port "$port" --mode trickle --count "$TRICKLE" --interval 5 --duration "$DURATION"
echo "   open descriptors after phase 1: $(fds)"
sleep 2
echo "== phase 2: $IDLE idle connections from 127.0.0.1, ${DURATION}s"
python3 scripts/bench/abuse.py --port "$port" --mode idle --count "$IDLE" --duration "$DURATION"
sleep 2
echo "   open descriptors after phase 2: $(fds)"
echo "== server counters"
curl -fsS "http://127.0.0.1:$port/metrics" | grep -E '^petspot_connections_(refused|cut)_total' || true
echo "== server log lines about refusals or cuts: $(grep -cE 'refused|cut at the header deadline' "$work/server.log" || true) (of $(wc -l < "$work/server.log") lines)"
grep -E 'refused|cut at the header deadline' "$work/server.log" | tail -3 || true
