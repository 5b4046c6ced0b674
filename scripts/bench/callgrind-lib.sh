# Shared by scripts/bench/callgrind-located.sh and callgrind-warm.sh (sourced, not run): the server
# under callgrind against scripts/bench/upstream.py, counting only what `callgrind_count` runs.

# callgrind_start BINARY ITEMS OUT_FILE FIRST_TARGET: starts the upstream with ITEMS items and the
# server under callgrind (instrumentation off), and waits until FIRST_TARGET answers. Sets `port`,
# `server` and `out_file`, and a trap that stops both and removes the stripped copy.
callgrind_start() {
  local binary=$1 items=$2 first=$4
  out_file=$3
  # valgrind 3.19 (Debian 12) cannot read the DWARF 5 the Swift toolchain writes: count a copy
  # without debug information (its symbol table still names every function).
  work=$(mktemp -d)
  strip --strip-debug -o "$work/petspot-web" "$binary"
  cd "$(dirname "${BASH_SOURCE[0]}")/../.."
  local up_port
  up_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
  python3 scripts/bench/upstream.py --items "$items" --port "$up_port" --seed 1 2>/dev/null & upstream=$!
  server=""
  trap 'kill $server $upstream 2>/dev/null || true; rm -rf "$work"' EXIT
  for _ in $(seq 100); do curl -fs --max-time 2 "http://127.0.0.1:$up_port/api/health" >/dev/null && break; sleep 0.2; done
  valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out_file" \
    "$work/petspot-web" --port "$port" --upstream "http://127.0.0.1:$up_port" --public-dir Public --templates-dir Templates \
    --log-level warning --cache-ttl 3600 >/dev/null 2>&1 & server=$!
  for _ in $(seq 600); do curl -fs --max-time 5 -o /dev/null "http://127.0.0.1:$port$first" && break; sleep 1; done
}

# callgrind_count COMMAND...: runs COMMAND counted, stops the server (waiting for it: its exit
# writes an uncounted profile first) and sets `total` to the instructions counted in all (the
# profile stays in `out_file`). Not in a subshell: only this shell can wait for the server.
callgrind_count() {
  callgrind_control -i on "$server" >/dev/null 2>&1
  "$@"
  callgrind_control -i off "$server" >/dev/null 2>&1
  callgrind_control -d "$server" >/dev/null 2>&1
  kill "$server"; wait "$server" 2>/dev/null || true; server=""
  mv "$out_file".1 "$out_file"  # the counted part (the dump); what the exit wrote over it was uncounted
  total=$(callgrind_annotate "$out_file" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
}
