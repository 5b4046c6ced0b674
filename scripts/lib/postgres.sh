# A throwaway PostgreSQL for scripts and tests (docs/scale-out.md "A throwaway PostgreSQL"): one
# cluster in a temporary folder, reached only through a unix socket in that folder (no TCP port to
# collide with), no fsync, trust authentication, a database `petspot`. Debian's `postgresql` (15).
#
# Sourced (`. scripts/lib/postgres.sh`) it defines the functions below; run as a command it does one
# of them, so a test suite can kill, hang or restart the server of a running script:
#
#   scripts/lib/postgres.sh new                 prints the folder of a new, started cluster
#   scripts/lib/postgres.sh url|start|kill|hang|resume|restart|remove FOLDER
#
# Layout of FOLDER: data/ (the cluster), the socket .s.PGSQL.5432, postgres.pid (the postmaster's
# process id, written by us), postgres.log.
#
# The postmaster is started directly, not with pg_ctl: pg_ctl's server, killed with -9, leaves
# data/postmaster.pid behind and a restart 0.5 s later failed with "lock file already exists". As root
# it runs as the `postgres` user (initdb refuses root) through setpriv, which execs in place, so the
# process id we record is the postmaster's own and `kill -9` hits the server, not a wrapper.

pg_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$dir" ] || { echo "postgres.sh: no /usr/lib/postgresql/*/bin (install Debian's postgresql)" >&2; return 1; }
  echo "$dir"
}

# pg_exec_as_owner COMMAND...: replaces this (sub)shell with COMMAND run as the cluster's owner
# (postgres when we are root).
pg_exec_as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    exec setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"
  else
    exec "$@"
  fi
}

# pg_new: initdb into a new temporary folder, start the server, create the database `petspot`;
# sets PG_FOLDER and prints the folder. Call it directly, not as $(pg_new), to keep the postmaster a
# child of this shell (then pg_kill and pg_remove can `wait` for it).
pg_new() {
  local folder bin
  bin=$(pg_bin) || return 1
  # Short path: a unix socket path is limited to 107 bytes.
  folder=$(mktemp -d /tmp/petspot-pg.XXXXXX)
  PG_FOLDER=$folder
  chmod 755 "$folder"
  [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$folder"
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$bin/initdb" --no-sync -A trust -U postgres -E UTF8 --locale=C.UTF-8 -D "$folder/data" \
      >"$folder/initdb.log" 2>&1
  else
    "$bin/initdb" --no-sync -A trust -U postgres -E UTF8 --locale=C.UTF-8 -D "$folder/data" >"$folder/initdb.log" 2>&1
  fi || { cat "$folder/initdb.log" >&2; return 1; }
  pg_start "$folder" || return 1
  "$bin/psql" -h "$folder" -U postgres -d postgres -qAt -c 'CREATE DATABASE petspot' >/dev/null || return 1
  echo "$folder"
}

# pg_url FOLDER: the database URL of the cluster (PETSPOT_DATABASE_URL / --database-url).
pg_url() {
  echo "postgres://postgres@/petspot?host=$1"
}

# pg_alive PID: the process runs (a zombie, dead but not yet reaped by its parent, does not).
pg_alive() {
  local state
  state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}

# pg_pid FOLDER: the postmaster's process id, empty when it is not running.
pg_pid() {
  local pid
  pid=$(cat "$1/postgres.pid" 2>/dev/null) || return 0
  [ -n "$pid" ] && pg_alive "$pid" && echo "$pid"
  return 0
}

# pg_start FOLDER: starts the postmaster in the background (a child of this shell) and waits until it
# accepts connections (at most 15 s).
pg_start() {
  local folder=$1 bin pid
  bin=$(pg_bin) || return 1
  [ -z "$(pg_pid "$folder")" ] || { echo "postgres.sh: already running in $folder" >&2; return 1; }
  # The subshell execs: $! is the postmaster itself.
  (pg_exec_as_owner "$bin/postgres" -D "$folder/data" -k "$folder" -c listen_addresses='' -c fsync=off \
    -c full_page_writes=off -c max_connections=100 >>"$folder/postgres.log" 2>&1 </dev/null) &
  pid=$!
  # Killed on purpose by pg_kill: no "Killed" job report from this shell (it still reaps the process).
  disown "$pid" 2>/dev/null || true
  echo "$pid" >"$folder/postgres.pid"
  for _ in $(seq 1 150); do
    if "$bin/pg_isready" -q -h "$folder" -U postgres -d postgres -t 1; then return 0; fi
    pg_alive "$pid" || break
    sleep 0.1
  done
  echo "postgres.sh: the server in $folder did not start; its log:" >&2
  tail -n 20 "$folder/postgres.log" >&2
  return 1
}

# pg_family PID: the postmaster and its children (backends, checkpointer, walwriter…).
pg_family() {
  echo "$1"
  ps -o pid= --ppid "$1" 2>/dev/null | tr -d ' '
}

# pg_kill FOLDER: kill -9 of the postmaster, as a crash; then waits (at most 10 s) until its former
# children have noticed and exited, so a restart finds no process attached to the old shared memory.
pg_kill() {
  local folder=$1 pid children
  pid=$(pg_pid "$folder")
  [ -n "$pid" ] || return 0
  children=$(ps -o pid= --ppid "$pid" 2>/dev/null | tr -d ' ')
  kill -CONT "$pid" $children 2>/dev/null || true
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
    local alive=0 c
    pg_alive "$pid" && alive=1
    for c in $children; do pg_alive "$c" && alive=1; done
    [ "$alive" -eq 0 ] && break
    sleep 0.1
  done
  rm -f "$folder/postgres.pid"
}

# pg_hang FOLDER: SIGSTOP to the postmaster and every child: connections stay open, nothing answers.
pg_hang() {
  local pid
  pid=$(pg_pid "$1")
  [ -n "$pid" ] || { echo "postgres.sh: not running in $1" >&2; return 1; }
  # The postmaster first, so it forks no new child after the list is taken.
  kill -STOP "$pid"
  pg_family "$pid" >"$1/stopped.pids"
  xargs -r kill -STOP <"$1/stopped.pids" 2>/dev/null || true
}

# pg_resume FOLDER: SIGCONT to what pg_hang stopped.
pg_resume() {
  [ -f "$1/stopped.pids" ] || return 0
  xargs -r kill -CONT <"$1/stopped.pids" 2>/dev/null || true
  rm -f "$1/stopped.pids"
}

# pg_restart FOLDER: kill -9 when running, then start again in the same folder (crash recovery).
pg_restart() {
  pg_kill "$1"
  pg_start "$1"
}

# pg_remove FOLDER: stops the server (resumed first if hung; fast shutdown, at most 5 s, then -9)
# and deletes the folder.
pg_remove() {
  local folder=$1 pid
  [ -n "$folder" ] && [ -d "$folder" ] || return 0
  pg_resume "$folder"
  pid=$(pg_pid "$folder")
  if [ -n "$pid" ]; then
    kill -INT "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do pg_alive "$pid" || break; sleep 0.1; done
    pg_alive "$pid" && pg_kill "$folder"
    wait "$pid" 2>/dev/null || true
  fi
  case "$folder" in /tmp/petspot-pg.*) rm -rf "$folder" ;; esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  command=${1:-}
  case "$command" in
    new) pg_new ;;
    url | start | kill | hang | resume | restart | remove)
      [ -n "${2:-}" ] || { echo "usage: $0 $command FOLDER" >&2; exit 2; }
      "pg_$command" "$2"
      ;;
    *) echo "usage: $0 new | url|start|kill|hang|resume|restart|remove FOLDER" >&2; exit 2 ;;
  esac
fi
