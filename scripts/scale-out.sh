#!/usr/bin/env bash
# Two replicas, one service (docs/scale-out.md): a throwaway PostgreSQL (scripts/lib/postgres.sh), the
# demo upstream alone with its test hooks, two replicas of petspot-web sharing that database and that
# upstream, and nginx round-robin in front of them without affinity, all on loopback; then the pytest
# suite scale-tests/ against nginx and against each replica directly, PostgreSQL killed and hung mid-run.
# Stops everything it started, ends with pytest's summary line, exits non-zero when a test fails.
#
#   scripts/scale-out.sh [pytest args…]        e.g. -k limit, -x
#
# Environment:
#   PETSPOT_BIN=.build/debug/petspot-web   the server binary (built by scripts/test.sh; nothing is built here)
#   SCALE_VENV=.venv-scale                 the Python venv (requests, pytest; scale-tests/requirements.txt)
#   SCALE_TIMEOUT=900                      seconds the whole pytest run may take
#   SCALE_BENCH=1                          instead of the suite, the replica rows of the benchmark
#                                          (scale-tests/bench_replicas.py: figures, no assertions)
#   SCALE_BENCH=alerts                     instead of the suite, the alert rows (scale-tests/bench_alerts.py)
#
# A binary without `--database-url` still runs (each replica then keeps its write state in memory, as
# before the shared store): the suite then shows which rows fail, which is what it is there to catch.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
. scripts/lib/postgres.sh

BIN=${PETSPOT_BIN:-.build/debug/petspot-web}
VENV=${SCALE_VENV:-$PWD/.venv-scale}
TIMEOUT=${SCALE_TIMEOUT:-900}
[ -x "$BIN" ] || { echo "scale-out.sh: no server binary at $BIN (run scripts/test.sh or swift build, or set PETSPOT_BIN)" >&2; exit 1; }
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

ensure_packages postgresql nginx-light python3-venv curl
[ "${SCALE_BENCH:-0}" = alerts ] && ensure_packages wrk
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

want=$(sha256sum scale-tests/requirements.txt | cut -d' ' -f1)
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$VENV/.requirements.sha" 2>/dev/null)" != "$want" ]; then
  python3 -m venv "$VENV" && "$VENV/bin/pip" install -q --disable-pip-version-check -r scale-tests/requirements.txt \
    && echo "$want" >"$VENV/.requirements.sha" || { echo "scale-out.sh: could not create the venv $VENV" >&2; exit 1; }
fi

work=$(mktemp -d /tmp/petspot-scale.XXXXXX)
chmod 755 "$work"
mkdir -p "$work/pids"
pg_folder=""

# stop_pid PID: SIGCONT (it may be stopped), SIGTERM, up to 5 s, then SIGKILL.
stop_pid() {
  local pid=$1
  [ -n "$pid" ] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill -CONT "$pid" 2>/dev/null
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

# Every process of this run has a file in $work/pids (the suite records the replicas it restarts
# there too); a pid is signalled only while its command line still names our binary or our folder.
cleanup() {
  local file pid
  for file in "$work"/pids/*.pid; do
    [ -f "$file" ] || continue
    pid=$(cat "$file")
    if [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -e "$BIN" -e "$work"; then
      stop_pid "$pid"
    fi
  done
  [ -n "$pg_folder" ] && pg_remove "$pg_folder"
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# wait_for URL NAME: until URL answers 200 (at most 30 s).
wait_for() {
  for _ in $(seq 1 300); do
    curl -fs --max-time 2 -o /dev/null "$1" && return 0
    sleep 0.1
  done
  echo "scale-out.sh: $2 did not answer at $1" >&2
  return 1
}

# Not $(pg_new): the postmaster stays a child of this shell.
pg_new >/dev/null || { echo "scale-out.sh: PostgreSQL did not start" >&2; [ -n "${PG_FOLDER:-}" ] && pg_remove "$PG_FOLDER"; exit 1; }
pg_folder=$PG_FOLDER
database_url=$(pg_url "$pg_folder")

up_port=$(free_port)
"$BIN" demo-upstream --port "$up_port" --test-hooks >"$work/upstream.log" 2>&1 &
echo $! >"$work/pids/upstream.pid"
wait_for "http://127.0.0.1:$up_port/api/health" "the demo upstream" || { tail -n 20 "$work/upstream.log"; exit 1; }

# The SMTP server of the alert mails (docs/alerts.md): aiosmtpd from the mail venv (scripts/mail/venv.sh),
# every mail into $work/mail (a Maildir), fault modes through $work/mail-mode (ok, 451, 550, hang).
mail_venv=$(scripts/mail/venv.sh) || { echo "scale-out.sh: could not create the mail venv" >&2; exit 1; }
echo ok >"$work/mail-mode"
"$mail_venv/bin/python" scripts/mail/smtp-sink.py --port 0 --maildir "$work/mail" --mode-file "$work/mail-mode" \
  >"$work/smtp.out" 2>"$work/smtp.log" &
echo $! >"$work/pids/smtp.pid"
smtp_port=""
for _ in $(seq 1 300); do
  smtp_port=$(sed -n 's/^READY \([0-9]*\)$/\1/p' "$work/smtp.out" 2>/dev/null)
  [ -n "$smtp_port" ] && break
  sleep 0.1
done
[ -n "$smtp_port" ] || { echo "scale-out.sh: the SMTP sink did not start" >&2; cat "$work/smtp.log"; exit 1; }

shared_store=1
# grep reads the whole help (with -q it could stop early, and pipefail would count the binary's SIGPIPE).
"$BIN" serve --help 2>/dev/null | grep -- '--database-url' >/dev/null || shared_store=0
[ "$shared_store" = 1 ] || echo "scale-out.sh: $BIN has no --database-url: the replicas keep their write state in memory"

# The replicas' settings, one per line, for this script and for the suite (which restarts a killed replica).
# --trusted-proxies: nginx's X-Forwarded-For names the visitor, so each test uses addresses of its own.
for name in a b; do
  port=$(free_port)
  {
    echo "$BIN"
    printf '%s\n' --port "$port" --upstream "http://127.0.0.1:$up_port" --report-limit 3 --trusted-proxies 127.0.0.1 \
      --cache-ttl 30 --log-level info --smtp-url "smtp://127.0.0.1:$smtp_port" --smtp-tls none --smtp-timeout 5 \
      --mail-from "PetSpot <alerts@petspot.test>"
    [ "$shared_store" = 1 ] && printf '%s\n' --database-url "$database_url"
  } >"$work/replica-$name.args"
  echo "$port" >"$work/replica-$name.port"
  mapfile -t args <"$work/replica-$name.args"
  "${args[@]}" >>"$work/replica-$name.log" 2>&1 &
  echo $! >"$work/pids/replica-$name.pid"
  # The suite kills replicas on purpose: no "Killed" job report from this shell.
  disown $!
done
for name in a b; do
  wait_for "http://127.0.0.1:$(cat "$work/replica-$name.port")/healthz" "replica $name" \
    || { tail -n 20 "$work/replica-$name.log"; exit 1; }
done

# nginx: round robin, no affinity; a POST is never retried on the other replica once sent (nginx's
# default for non-idempotent requests), and a GET is not either (proxy_next_upstream off), so a test
# sees what one replica answered.
nginx_port=$(free_port)
mkdir -p "$work/nginx/tmp"
cat >"$work/nginx/nginx.conf" <<EOF
daemon off; master_process on; worker_processes 1;
pid $work/nginx/nginx.pid; error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
  access_log $work/nginx/access.log;
  client_body_temp_path $work/nginx/tmp/body; proxy_temp_path $work/nginx/tmp/proxy;
  fastcgi_temp_path $work/nginx/tmp/fastcgi; uwsgi_temp_path $work/nginx/tmp/uwsgi; scgi_temp_path $work/nginx/tmp/scgi;
  client_max_body_size 21m;
  upstream petspot { server 127.0.0.1:$(cat "$work/replica-a.port") max_fails=0; server 127.0.0.1:$(cat "$work/replica-b.port") max_fails=0; }
  server {
    listen 127.0.0.1:$nginx_port;
    location / {
      proxy_pass http://petspot;
      proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_set_header Host \$http_host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_next_upstream off;
      proxy_request_buffering on; proxy_buffering off;
      proxy_read_timeout 60s;
      add_header X-Scale-Replica \$upstream_addr always;
    }
  }
}
EOF
"$NGINX" -p "$work/nginx" -e "$work/nginx/error.log" -c "$work/nginx/nginx.conf" &
echo $! >"$work/pids/nginx.pid"
wait_for "http://127.0.0.1:$nginx_port/healthz" "nginx" || { cat "$work/nginx/error.log"; exit 1; }

echo "== scale-out: PostgreSQL $pg_folder, upstream :$up_port, replicas :$(cat "$work/replica-a.port") :$(cat "$work/replica-b.port"), nginx :$nginx_port"
case "${SCALE_BENCH:-0}" in
  1) runner=(scale-tests/bench_replicas.py) ;;
  alerts) runner=(scale-tests/bench_alerts.py) ;;
  *) runner=(-m pytest scale-tests -p no:cacheprovider -rfE) ;;
esac
status=0
SCALE_MAIL_DIR="$work/mail" SCALE_MAIL_MODE="$work/mail-mode" SCALE_WORK=$work SCALE_BIN=$BIN SCALE_PG_FOLDER=$pg_folder SCALE_DATABASE_URL=$database_url SCALE_SHARED_STORE=$shared_store \
  SCALE_UPSTREAM="http://127.0.0.1:$up_port" SCALE_NGINX="http://127.0.0.1:$nginx_port" \
  SCALE_A="http://127.0.0.1:$(cat "$work/replica-a.port")" SCALE_B="http://127.0.0.1:$(cat "$work/replica-b.port")" \
  timeout -k 10 "$TIMEOUT" "$VENV/bin/python" "${runner[@]}" "$@" 2>&1 | tee "$work/pytest.log"
status=${PIPESTATUS[0]}
[ "$status" -eq 124 ] && echo "scale-out.sh: the suite ran past ${TIMEOUT} s and was stopped"
summary=$(grep -E '^=+ .*(passed|failed|error|no tests ran).* =+$' "$work/pytest.log" | tail -n 1)
if [ "$status" -ne 0 ]; then
  for name in a b; do
    echo "-- replica $name, last lines but request logs"
    grep -v '\] request$' "$work/replica-$name.log" | tail -n 15
  done
fi
[ -f "$work/freshness.txt" ] && cat "$work/freshness.txt"
[ -f "$work/reunited.txt" ] && cat "$work/reunited.txt"
cleanup
trap - EXIT
echo "${summary:-scale-out: pytest ended with status $status and no summary}"
exit "$status"
