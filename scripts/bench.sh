#!/usr/bin/env bash
# Loopback benchmark of a release build against a generated upstream, with nginx serving the same
# bytes as the reference. Prints figures, asserts nothing. Every load loop is bounded in time.
#
# For each item count in SIZES (default "38 500 5000 50000"):
#   - starts scripts/bench/upstream.py --items N (generated, deterministic announcements) and our
#     server against it; "first page" = seconds from launching the server until GET /pets is 200;
#   - fetches the bytes our server returns for each measured URL into an nginx root and starts
#     nginx-light (non-daemon, worker_processes auto as Debian ships it = one per core, access_log off, loopback)
#     serving exactly those bytes with the same Content-Type;
#   - runs wrk -t2 -c64 -d${DURATION}s --latency against ours and against nginx for:
#       warm /pets (requested once first), /pets at a random location per request
#       (scripts/bench/random-location.lua; nginx serves one located page, /pets?lat=52.2297&lng=21.0122),
#       /pets/{id} for one known id, the JSON list /api/v1/announcements, a pet with possible matches
#       (docs/matching.md: its details page and /api/v1/announcements/{id}/matches, warm), and the Atom feed:
#       warm /pets.atom and /pets.atom at a random location per request (the same Lua script;
#       nginx serves one located feed, /pets.atom?lat=52.2297&lng=21.0122);
#   - records upstream calls during each row (diff of the upstream's /__stats), non-2xx responses
#     and socket errors reported by wrk, and our server's peak RSS (VmRSS sampled every 0.5 s).
# Then the photo rows (docs/performance.md; PHOTOS=0 skips them), once, with 38 items whose 20 photos are
# phone-like 12 MP JPEGs (scripts/photo_fixtures.py: EXIF orientation 6, GPS tags; Pillow in
# .build-bench/venv) served by the upstream as its static server does (max-age=0, ETag):
#   - the first 640 px variant of each of 5 photos on a fresh server: request time (curl, includes
#     the 2-3 MB upstream transfer) and conversion time (the server's debug log), median and range;
#   - a warm 640 px thumbnail under wrk, against nginx serving the same bytes;
#   - the bytes Chromium loads for the 20-card list page at 360 px and 1280 px viewports
#     (scripts/bench/page_bytes.py: the page alone, lazy photos below the fold not fetched; and
#     after scrolling through it).
# Then prints one table, the machine, and the domain benchmark (decode + validate + sort).
#
# Environment:
#   SIZES="38 500 5000 50000"  DURATION=10 (s per wrk run)  TTL=30 (--cache-ttl)  SEED=1
#   ROUNDS=1                   runs of each row (ours, then nginx, alternating); the row reports the
#                              medians and the median of the rounds' ratios (the refresh row: one run)
#   PETSPOT_BIN=path           use this binary as is instead of building the release product
#   WRK_TIMEOUT=10s            wrk's per-request timeout (wrk's default of 2 s is too short for
#                              the ~28 MB list at 50,000 items)
#   FIRST_PAGE_TIMEOUT=30      seconds to wait for the first 200 from /pets
#   BENCH_DOMAIN=0             skip the domain benchmark at the end
#   PHOTOS=0                   skip the photo rows
#   STEADY=1                   add the steady row: random-location /pets in 12 windows of 5 s while a new report
#                              arrives upstream every 20 s, faults per answer and RSS per window, with the data's
#                              density (docs/performance.md "Steady speed"); STEADY=only runs that row alone
#   LAYOUT=even                where the generated pets are: even (uniform over Poland's box) or clustered
#                              (around a dozen cities; scripts/bench/upstream.py --layout)
#   REFRESH=0                  skip the refresh row (located load for TTL + 5 s while a new snapshot
#                              of the same size is fetched and indexed; its RSS is the refresh's peak)
#   COMPRESSION=0              skip the compression rows
#   REPORTS=0                  skip the report rows (scripts/bench/reports.sh: a report with a 12 MP
#                              JPEG end to end and its photo step, warm /pets while 4 reports upload,
#                              RSS growth with 8 concurrent 20 MB uploads; on the demo upstream)
#   REPORTS_ONLY=1             only the report rows (no item sizes, no photo rows)
#   SMAPS_DIR=dir              save /proc/PID/smaps of our server after each size's whole run as dir/smaps-N
#   DATABASE=0                 skip the rows on a second server whose write store is PostgreSQL (reads
#                              must not touch it: warm /pets and a random location, against the same nginx)
#   ALERTS=1                   also the e-mail alert rows at the end (docs/alerts.md, docs/performance.md
#                              "E-mail alerts"): report → alert mail accepted by a real SMTP server, 10,000
#                              owed mails from one replica, reads while it sends (SCALE_BENCH=alerts
#                              scripts/scale-out.sh on the debug binary of scripts/test.sh), and the fan-out's
#                              look-up on 1,000,000 subscriptions (scripts/bench/alerts-fanout.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_build_packages
ensure_packages wrk nginx-light curl python3

SIZES=${SIZES:-"38 500 5000 50000"}
if [ "${REPORTS_ONLY:-0}" = 1 ]; then SIZES=""; PHOTOS=0; fi
DURATION=${DURATION:-10}
TTL=${TTL:-30}
SEED=${SEED:-1}
WRK_TIMEOUT=${WRK_TIMEOUT:-10s}
FIRST_PAGE_TIMEOUT=${FIRST_PAGE_TIMEOUT:-30}
SCRATCH=.build-release
LOCATED_URL="/pets?lat=52.2297&lng=21.0122"
LOCATED_FEED_URL="/pets.atom?lat=52.2297&lng=21.0122"
LUA="$PWD/scripts/bench/random-location.lua"

if [ -n "${PETSPOT_BIN:-}" ]; then
  BIN=$PETSPOT_BIN
else
  swift build -c release --scratch-path "$SCRATCH" --product petspot-web >/dev/null
  BIN="$SCRATCH/release/petspot-web"
fi
[ -x "$BIN" ] || { echo "no executable at $BIN" >&2; exit 1; }
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

work=$(mktemp -d)
# nginx workers run as an unprivileged user when started by root: they must be able to read the root.
chmod 755 "$work"
server="" upstream="" nginx_pid="" sampler=""
stop_pid() {  # stop_pid PID: SIGTERM, up to 5 s, then SIGKILL
  local pid=$1
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  rm -f "$work/sampling" 2>/dev/null || true
  stop_pid "$sampler"; stop_pid "$server"; stop_pid "$nginx_pid"; stop_pid "$upstream"
  # The throwaway PostgreSQL of the rows with the shared store (and of the report rows), if one started.
  if [ -n "${PG_FOLDER:-}" ] && declare -F pg_remove >/dev/null; then pg_remove "$PG_FOLDER"; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
now() { date +%s.%N; }
stats_field() { sed -E "s/.*\"$2\": *([0-9]+).*/\\1/" <<<"$1"; }
upstream_stats() { curl -fs --max-time 5 "http://127.0.0.1:$up_port/__stats" || echo '{"list_calls":0,"details_calls":0,"not_modified":0}'; }
calls_between() {  # calls_between BEFORE AFTER -> "L/D" (+ 304 count)
  local l d n
  l=$(( $(stats_field "$2" list_calls) - $(stats_field "$1" list_calls) ))
  d=$(( $(stats_field "$2" details_calls) - $(stats_field "$1" details_calls) ))
  n=$(( $(stats_field "$2" not_modified) - $(stats_field "$1" not_modified) ))
  if [ "$n" -gt 0 ]; then echo "$l/$d (304: $n)"; else echo "$l/$d"; fi
}
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
sample_rss() {  # sample_rss PID OUT: max VmRSS (kB) every 0.5 s while $work/sampling exists (bounded)
  local max=0 v i=0 limit=$(( (DURATION + 60) * 2 ))
  while [ -e "$work/sampling" ] && [ "$i" -lt "$limit" ]; do
    v=$(rss_kb "$1"); v=${v:-0}
    [ "$v" -gt "$max" ] && max=$v
    i=$((i + 1)); sleep 0.5
  done
  echo "$max" >"$2"
}
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

# run_wrk OUTFILE URL [LUA_PATH]: one bounded wrk run; the Lua script gets WRK_PATH=LUA_PATH.
# With WRK_ACCEPT_ENCODING set, every request sends it as Accept-Encoding (compression rows).
run_wrk() {
  local out=$1 url=$2 lua_path=${3:-}
  local header=()
  [ -z "${WRK_ACCEPT_ENCODING:-}" ] || header=(-H "Accept-Encoding: $WRK_ACCEPT_ENCODING")
  if [ -n "$lua_path" ]; then
    WRK_PATH=$lua_path timeout $((DURATION + 30)) wrk -t2 -c64 -d"${DURATION}s" --timeout "$WRK_TIMEOUT" --latency "${header[@]}" -s "$LUA" "$url" >"$out" 2>&1 || true
  else
    timeout $((DURATION + 30)) wrk -t2 -c64 -d"${DURATION}s" --timeout "$WRK_TIMEOUT" --latency "${header[@]}" "$url" >"$out" 2>&1 || true
  fi
}
# median_of VALUE...: the middle value (the lower of the two middle ones for an even count); "-"
# when any value is "-" (a run that gave no rate).
median_of() {
  if [ $# = 0 ] || printf '%s\n' "$@" | grep -qx -- -; then echo -; return; fi
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
wrk_rps() { awk '/^Requests\/sec/ {printf "%.0f", $2; found=1} END {if (!found) print "-"}' "$1"; }
wrk_pct() { awk -v p="$2" '$1 == p {print $2; found=1} END {if (!found) print "-"}' "$1"; }
wrk_bad() {  # non-2xx (wrk counts status >= 400) plus socket errors, e.g. "0" or "12 of 3400 +3 timeout"
  awk '/ requests in / {total = $1}
       /Non-2xx or 3xx responses/ {bad = $NF " of " total}
       /Socket errors/ { gsub(",", ""); for (i = 3; i < NF; i += 2) if ($(i + 1) > 0) err = err " +" $(i + 1) " " $i }
       END { printf "%s%s", (bad == "" ? 0 : bad), err }' "$1"
}

# start_nginx DIR PORT ROOT NAME=TYPE...: nginx-light (non-daemon, one worker per core, access log
# off) on 127.0.0.1:PORT serving ROOT/b/NAME with Content-Type TYPE; sets nginx_pid and waits
# until the first NAME answers (bounded).
start_nginx() {
  local dir=$1 port=$2 root=$3 pair t
  shift 3
  mkdir -p "$dir/tmp"
  {
    echo "daemon off; master_process on; worker_processes auto;"
    echo "pid $dir/nginx.pid; error_log $dir/error.log warn;"
    echo "events { worker_connections 4096; }"
    echo "http {"
    echo "  access_log off; sendfile on; tcp_nopush on; keepalive_timeout 65; keepalive_requests 10000000;"
    for t in client_body proxy fastcgi uwsgi scgi; do echo "  ${t}_temp_path $dir/tmp/$t;"; done
    echo "  server {"
    echo "    listen 127.0.0.1:$port; root $root;"
    # NAME.br / NAME.gz: a file compressed beforehand, sent with its Content-Encoding (gzip_static
    # style); NAME.gzfly: compressed by nginx per request, gzip level 1 (compression rows).
    for pair in "$@"; do
      case ${pair%%=*} in
        *.br) extra="add_header Content-Encoding br; add_header Vary Accept-Encoding;" ;;
        *.gz) extra="add_header Content-Encoding gzip; add_header Vary Accept-Encoding;" ;;
        *.gzfly) extra="gzip on; gzip_comp_level 1; gzip_vary on; gzip_types *;" ;;
        *) extra="" ;;
      esac
      echo "    location = /b/${pair%%=*} { default_type \"${pair#*=}\"; $extra }"
    done
    echo "  }"
    echo "}"
  } >"$dir/nginx.conf"
  "$NGINX" -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf" &
  nginx_pid=$!
  for _ in $(seq 1 100); do curl -fs --max-time 2 -o /dev/null "http://127.0.0.1:$port/b/${1%%=*}" && break; sleep 0.1; done
}

# compression_rows: issue "fewer bytes on the wire". Bytes of /pets and site.css (br, gzip) and of
# the JSON list; the JSON list's time to last byte (curl, median of 5) plain and br (its br form is
# made in the background once per snapshot: waited for, at most 120 s); warm /pets with br against
# nginx sending the same br file; /pets at a random location with gzip against nginx compressing
# the same located page per request at level 1.
compression_rows() {
  local name path plain br gz line ttlb_plain ttlb_br
  for name in /pets /static/css/site.css; do
    plain=$(curl -s --max-time 60 "http://127.0.0.1:$port$name" | wc -c)
    br=$(curl -s --max-time 60 -H 'Accept-Encoding: br' "http://127.0.0.1:$port$name" | wc -c)
    gz=$(curl -s --max-time 60 -H 'Accept-Encoding: gzip' "http://127.0.0.1:$port$name" | wc -c)
    line="bytes of $name: plain $plain, br $br ($(pct "$br" "$plain")), gzip $gz ($(pct "$gz" "$plain"))"
    echo "   $line"; row "$items" "$line" - - - - - - - - -
  done
  path=/api/v1/announcements
  for _ in $(seq 1 240); do
    [ "$(curl -s --max-time 60 -o /dev/null -D - -H 'Accept-Encoding: br' "http://127.0.0.1:$port$path" | tr -d '\r' \
      | awk 'tolower($1) == "content-encoding:" {print $2}')" = br ] && break
    sleep 0.5
  done
  plain=$(curl -s --max-time 60 "http://127.0.0.1:$port$path" | wc -c)
  br=$(curl -s --max-time 60 -H 'Accept-Encoding: br' "http://127.0.0.1:$port$path" | wc -c)
  gz=$(curl -s --max-time 60 -H 'Accept-Encoding: gzip' "http://127.0.0.1:$port$path" | wc -c)
  ttlb() { for _ in 1 2 3 4 5; do curl -s --max-time 60 -o /dev/null -w '%{time_total}\n' "$@"; done \
    | sort -n | awk '{ v[NR] = $1 } END { printf "%.0f ms", v[3] * 1000 }'; }
  ttlb_plain=$(ttlb "http://127.0.0.1:$port$path")
  ttlb_br=$(ttlb -H 'Accept-Encoding: br' "http://127.0.0.1:$port$path")
  line="bytes of $path: plain $plain, br $br ($(pct "$br" "$plain")), gzip $gz ($(pct "$gz" "$plain")); time to last byte plain $ttlb_plain, br $ttlb_br"
  echo "   $line"; row "$items" "$line" - - - - - - - - -
  WRK_ACCEPT_ENCODING=br measure warm.br "warm /pets, br (nginx: the same br file)" /pets
  WRK_ACCEPT_ENCODING=gzip measure located.gzfly "/pets random location, gzip (nginx: gzip level 1 per request)" /pets lua
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f %%", 100 * a / b; else print "-" }'; }

rows="$work/rows"
: >"$rows"
row() { printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$@" >>"$rows"; }

# Reads never touch the shared write store (docs/replicas.md): the same warm and located rows on a
# second server of the same binary and upstream whose write store is a throwaway PostgreSQL
# (scripts/lib/postgres.sh), against the same nginx; DATABASE=0 skips them.
database_rows() {
  local plain_port=$port plain_server=$server
  if [ -z "${PG_FOLDER:-}" ]; then
    . scripts/lib/postgres.sh
    ensure_packages postgresql
    pg_new >/dev/null || { row "$items" "rows with PostgreSQL" - - - - - - - "PostgreSQL did not start" -; return 0; }
  fi
  port=$(free_port)
  "$BIN" --port "$port" --upstream "http://127.0.0.1:$up_port" --public-dir Public --templates-dir Templates \
    --log-level warning --cache-ttl "$TTL" --database-url "$(pg_url "$PG_FOLDER")" >"$work/server-$items-pg.log" 2>&1 &
  server=$!
  for _ in $(seq 1 600); do curl -fs --max-time 5 -o /dev/null "http://127.0.0.1:$port/pets" && break; sleep 0.05; done
  curl -s -o /dev/null --max-time 60 "http://127.0.0.1:$port/pets" || true   # warm
  measure warm "warm /pets, write store in PostgreSQL" /pets
  measure located "/pets random location, write store in PostgreSQL" /pets lua
  # Reads must not touch the store: its operations counted by the server itself during both rows.
  local store_ops
  store_ops=$(curl -s --max-time 10 "http://127.0.0.1:$port/metrics" \
    | awk '/^petspot_store_duration_seconds_count/ { n += $NF } END { print n + 0 }')
  row "$items" "write-store operations during those reads (petspot_store_duration_seconds_count): $store_ops" - - - - - - - - -
  reunited_row
  stop_pid "$server"
  port=$plain_port server=$plain_server
}

# Every tenth pet of the upstream marked reunited in the shared store, as the owner's page does
# (docs/sightings.md "Reunited"), and announced with the NOTIFY the replicas listen to: then the located row
# again, on the list with those pets hidden, against the same nginx page.
reunited_row() {
  local ids hidden bin
  bin=$(pg_bin)
  ids=$(curl -fs --max-time 60 "http://127.0.0.1:$up_port/api/v1/announcements" | grep -o '"id":"[^"]*"' | cut -d'"' -f4 \
    | awk 'NR % 10 == 1')
  hidden=$(wc -l <<<"$ids")
  { echo "INSERT INTO petspot_reunion (pet_id, at) VALUES"
    awk '{ printf "%s(\x27%s\x27, now())", (NR > 1 ? ",\n" : ""), $0 } END { print " ON CONFLICT DO NOTHING;" }' <<<"$ids"
    echo "SELECT pg_notify('petspot_changes', 'bench reunited');"
  } | "$bin/psql" -h "$PG_FOLDER" -U postgres -d petspot -qAt >/dev/null
  local first seen=""
  first=$(head -1 <<<"$ids")
  for _ in $(seq 1 200); do
    curl -fs --max-time 5 "http://127.0.0.1:$port/pets/$first" | grep -q 'data-testid="reunited-banner"' && { seen=1; break; }
    sleep 0.05
  done
  [ -n "$seen" ] || { row "$items" "reunited row: the reunions were not seen within 10 s" - - - - - - - - -; return 0; }
  curl -s -o /dev/null --max-time 60 "http://127.0.0.1:$port/pets" || true   # warm
  measure located "/pets random location, $hidden of $items pets reunited (hidden), write store in PostgreSQL" /pets lua
}

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
echo "== PetSpot bench: binary $BIN, sizes: $SIZES, ${DURATION}s per run, --cache-ttl $TTL"

for items in $SIZES; do
  echo "== $items items"
  # Upstream (generation of 50,000 items takes a few seconds).
  up_port=$(free_port)
  python3 scripts/bench/upstream.py --items "$items" --port "$up_port" --seed "$SEED" --layout "${LAYOUT:-even}" \
    2>"$work/upstream.log" &
  upstream=$!
  for _ in $(seq 1 600); do
    curl -fs --max-time 2 "http://127.0.0.1:$up_port/api/health" >/dev/null 2>&1 && break
    kill -0 "$upstream" 2>/dev/null || { cat "$work/upstream.log" >&2; exit 1; }
    sleep 0.2
  done
  known_id=$(curl -fs --max-time 30 "http://127.0.0.1:$up_port/api/v1/announcements" | head -c 4096 \
    | grep -o '"id":"[^"]*"' | head -1 | cut -d'"' -f4 || true)

  # Our server; first page after start.
  port=$(free_port)
  stats0=$(upstream_stats)
  t0=$(now)
  "$BIN" --port "$port" --upstream "http://127.0.0.1:$up_port" --public-dir Public --templates-dir Templates \
    --log-level warning --cache-ttl "$TTL" >"$work/server-$items.log" 2>&1 &
  server=$!
  deadline=$(awk -v t="$t0" -v d="$FIRST_PAGE_TIMEOUT" 'BEGIN { printf "%.3f", t + d }')
  code=000 first="-"
  while :; do
    code=$(curl -s -o /dev/null --max-time "$FIRST_PAGE_TIMEOUT" -w '%{http_code}' "http://127.0.0.1:$port/pets" || true)
    if [ "$code" = 200 ]; then first=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f s", b - a }'); break; fi
    kill -0 "$server" 2>/dev/null || { first="server exited"; break; }
    awk -v d="$deadline" -v n="$(now)" 'BEGIN { exit !(n > d) }' && { first="no 200 in ${FIRST_PAGE_TIMEOUT} s (last HTTP $code)"; break; }
    sleep 0.02
  done
  stats1=$(upstream_stats)
  echo "   first page after start: $first"
  row "$items" "first /pets after start: $first" - - - - - - "$(calls_between "$stats0" "$stats1")" \
    "$([ "$code" = 200 ] && echo 0 || echo "HTTP $code")" "$(mb "$(rss_kb "$server")")"
  if ! kill -0 "$server" 2>/dev/null; then
    tail -20 "$work/server-$items.log" >&2
    server=""; stop_pid "$upstream"; upstream=""; continue
  fi

  # The bytes nginx serves: exactly what our server returned for the same URL.
  root="$work/nginx-$items/root"
  mkdir -p "$root/b"
  declare -A status=() ctype=()
  fetch() {  # fetch NAME URL
    local out
    out=$(curl -s --max-time 60 -o "$root/b/$1" -w '%{http_code} %{content_type}' "http://127.0.0.1:$port$2" || echo "000 -")
    status[$1]=${out%% *}; ctype[$1]=${out#* }
    [ -n "${ctype[$1]}" ] || ctype[$1]=application/octet-stream
    echo "   $2 -> HTTP ${status[$1]}, $(stat -c %s "$root/b/$1" 2>/dev/null || echo 0) bytes, ${ctype[$1]}"
  }
  fetch warm /pets
  fetch located "$LOCATED_URL"
  if [ -n "$known_id" ]; then fetch details "/pets/$known_id"; else status[details]=000; ctype[details]=-; fi
  fetch api /api/v1/announcements
  # Possible matches (docs/matching.md): the first of the upstream's first 40 ids that has some; its
  # details page (section included) and its matches API, both warm.
  match_id=""
  for id in $(curl -fs --max-time 60 "http://127.0.0.1:$up_port/api/v1/announcements" | head -c 65536 \
    | grep -o '"id":"[^"]*"' | cut -d'"' -f4 | head -40 || true); do
    if curl -fs --max-time 30 "http://127.0.0.1:$port/api/v1/announcements/$id/matches" | grep -q '"reasons"'; then match_id=$id; break; fi
  done
  if [ -n "$match_id" ]; then
    fetch mdetails "/pets/$match_id"
    fetch mapi "/api/v1/announcements/$match_id/matches"
  else status[mdetails]=000; ctype[mdetails]=-; status[mapi]=000; ctype[mapi]=-; fi
  fetch feed /pets.atom
  fetch feedloc "$LOCATED_FEED_URL"
  # The poster (docs/poster.md): the first one of a pet (its QR code made, the page rendered), then warm.
  first_poster=-
  if [ -n "$known_id" ]; then
    first_poster=$(curl -s -o /dev/null --max-time 60 -w '%{time_total}' "http://127.0.0.1:$port/pets/$known_id/poster" \
      | awk '{ printf "%.1f ms", $1 * 1000 }')
    fetch poster "/pets/$known_id/poster"
  else status[poster]=000; ctype[poster]=-; fi
  # Compression rows: the bytes of the compressed forms, and nginx serving the same br bytes.
  if [ "${COMPRESSION:-1}" != 0 ]; then
    curl -s --max-time 60 -H 'Accept-Encoding: br' -o "$root/b/warm.br" "http://127.0.0.1:$port/pets"
    cp "$root/b/located" "$root/b/located.gzfly"
    status[warm.br]=${status[warm]}; status[located.gzfly]=${status[located]}
  fi

  # Fetching the list above started its one-time br and gzip on the background thread (seconds at
  # 50,000 items): wait until the list is served as br (at most 120 s), so that work does not land in
  # whichever row happens to run meanwhile (it moved between the warm and the located row as the
  # list's encoding got faster, docs/performance.md "Located pages").
  for _ in $(seq 1 240); do
    coding=$(curl -s --max-time 60 -o /dev/null -D - -H 'Accept-Encoding: br' "http://127.0.0.1:$port/api/v1/announcements" \
      | tr -d '\r' | awk -F': ' 'tolower($1) == "content-encoding" {print $2}')
    [ "$coding" = br ] && break
    sleep 0.5
  done

  ng_port=$(free_port)
  start_nginx "$work/nginx-$items" "$ng_port" "$root" "warm=${ctype[warm]}" "located=${ctype[located]}" \
    "details=${ctype[details]}" "api=${ctype[api]}" "feed=${ctype[feed]}" "feedloc=${ctype[feedloc]}" "poster=${ctype[poster]}" \
    "mdetails=${ctype[mdetails]}" "mapi=${ctype[mapi]}" \
    "warm.br=${ctype[warm]}" "located.gzfly=${ctype[located]}"
  if ! cmp -s <(curl -s --max-time 60 "http://127.0.0.1:$ng_port/b/warm") "$root/b/warm"; then
    echo "   nginx does not serve the expected bytes; see $work/nginx-$items/error.log" >&2
  fi

  # measure NAME LABEL OUR_PATH [lua]
  # measure NAME LABEL PATH [lua]: ROUNDS runs of ours, each followed by nginx's; the row gives the
  # median req/s of each and the median of the rounds' ratios (p50/p99 of the last round), so one
  # noisy stretch of the machine moves a row less (docs/performance.md "How to measure").
  measure() {
    local name=$1 label=$2 path=$3 lua=${4:-} before after ours ng rss ng_rps ratio bad ngbad round
    local rounds=${ROUNDS:-1} ours_all="" ng_all="" ratio_all=""
    before=$(upstream_stats)
    touch "$work/sampling"
    sample_rss "$server" "$work/rss" &
    sampler=$!
    local ng_p99=-
    bad=0
    for round in $(seq 1 "$rounds"); do
      # Each round draws its own random points (WRK_SEED): a round that repeated the last one's
      # URLs would find them kept by the response cache (second sighting), which nginx cannot match.
      if [ -n "$lua" ]; then WRK_SEED=$round run_wrk "$work/ours.txt" "http://127.0.0.1:$port" "$path"
      else run_wrk "$work/ours.txt" "http://127.0.0.1:$port$path"; fi
      ours=$(wrk_rps "$work/ours.txt")
      ours_all="$ours_all $ours"
      [ "$(wrk_bad "$work/ours.txt")" = 0 ] || bad=$(wrk_bad "$work/ours.txt")
      [ "${status[$name]}" = 200 ] || continue
      if [ -n "$lua" ]; then WRK_SEED=$round run_wrk "$work/nginx.txt" "http://127.0.0.1:$ng_port" "/b/$name"
      else run_wrk "$work/nginx.txt" "http://127.0.0.1:$ng_port/b/$name"; fi
      ng_rps=$(wrk_rps "$work/nginx.txt")
      ng_all="$ng_all $ng_rps"
      ratio_all="$ratio_all $(awk -v a="$ours" -v b="$ng_rps" 'BEGIN { if (b + 0 > 0 && a != "-") print a / b; else print "-" }')"
      ng_p99=$(wrk_pct "$work/nginx.txt" 99%)
      ngbad=$(wrk_bad "$work/nginx.txt")
      [ "$ngbad" = 0 ] || bad="$bad (nginx: $ngbad)"
    done
    rm -f "$work/sampling"; wait "$sampler" 2>/dev/null || true; sampler=""
    after=$(upstream_stats)
    rss="$(mb "$(cat "$work/rss" 2>/dev/null || echo 0)") / $(mb "$(rss_kb "$server")")"
    ours=$(median_of $ours_all)
    [ "$rounds" = 1 ] || label="$label (median of $rounds)"
    if [ "${status[$name]}" = 200 ]; then
      ng_rps=$(median_of $ng_all)
      ratio=$(median_of $ratio_all)
      ratio=$(awk -v r="$ratio" 'BEGIN { if (r == "-") print "-"; else printf (r < 0.1 ? "%.3f" : "%.2f"), r }')
    else
      ng_rps="n/a (ours HTTP ${status[$name]})"; ratio="-"
    fi
    echo "   $label: ours $ours req/s (p50 $(wrk_pct "$work/ours.txt" 50%), p99 $(wrk_pct "$work/ours.txt" 99%), non-2xx $bad), nginx $ng_rps req/s"
    row "$items" "$label" "$ours" "$(wrk_pct "$work/ours.txt" 50%)" "$(wrk_pct "$work/ours.txt" 99%)" \
      "$ng_rps" "$ng_p99" "$ratio" "$(calls_between "$before" "$after")" "$bad" "$rss"
  }
  # STEADY=1: an average hides stalls. The located load for 60 s in 5 s windows while a new report arrives
  # upstream every 20 s (/__add: the list's bytes change by one item, so a new snapshot is made under load),
  # with the TTL of the run; per window: answers/s, the server's minor page faults per answer (field 10 of
  # /proc/PID/stat) and RSS; then the slowest window over the median, and nginx's median window on the same
  # located page. The density of the data: items within 15 km of the random points of
  # scripts/bench/random-location.lua (upstream.py's /__density), which decides how much a located page holds.
  steady_rows() {
    local i f0 f1 n rps rates="" faults="" rss="" ng_rates="" bumper density
    density=$(curl -fs --max-time 120 "http://127.0.0.1:$up_port/__density?range=15&samples=2000" \
      | grep -o '"text":"[^"]*"' | cut -d'"' -f4 || true)
    density="${LAYOUT:-even} layout, items within 15 km of a random point: ${density:-unknown}"
    echo "   steady: $density"
    touch "$work/steady"
    ( while [ -e "$work/steady" ]; do sleep 20; [ -e "$work/steady" ] && curl -fs --max-time 10 -o /dev/null \
        "http://127.0.0.1:$up_port/__add"; done ) &
    bumper=$!
    for i in $(seq 1 12); do
      f0=$(awk '{print $10}' "/proc/$server/stat")
      DURATION=5 WRK_SEED=$((100 + i)) run_wrk "$work/steady.txt" "http://127.0.0.1:$port" /pets
      f1=$(awk '{print $10}' "/proc/$server/stat")
      n=$(awk '/ requests in / {print $1}' "$work/steady.txt")
      rps=$(wrk_rps "$work/steady.txt")
      rates="$rates $rps"
      faults="$faults $(awk -v a="$f0" -v b="$f1" -v n="${n:-0}" 'BEGIN { if (n > 0) printf "%.2f", (b - a) / n; else print "-" }')"
      rss="$rss $(mb "$(rss_kb "$server")")"
    done
    rm -f "$work/steady"; kill "$bumper" 2>/dev/null || true; wait "$bumper" 2>/dev/null || true
    for i in 1 2 3 4; do
      DURATION=5 WRK_SEED=$((200 + i)) run_wrk "$work/steady-ng.txt" "http://127.0.0.1:$ng_port" "/b/located"
      ng_rates="$ng_rates $(wrk_rps "$work/steady-ng.txt")"
    done
    local median slowest ng_median
    median=$(median_of $rates); ng_median=$(median_of $ng_rates)
    slowest=$(printf '%s\n' $rates | sort -g | head -1)
    echo "   steady, a new report every 20 s: answers/s per 5 s window:$rates; faults/answer:$faults; RSS MB:$rss"
    echo "   steady: slowest/median $(awk -v a="$slowest" -v b="$median" 'BEGIN { printf "%.2f", a / b }'), median/nginx" \
      "$(awk -v a="$median" -v b="$ng_median" 'BEGIN { printf "%.2f", a / b }') (nginx windows:$ng_rates)"
    row "$items" "steady random location, 12 × 5 s, a new report every 20 s ($density): windows$rates; faults/answer$faults" \
      "$median" - - "$ng_median" - "$(awk -v a="$median" -v b="$ng_median" 'BEGIN { printf "%.2f", a / b }')" - - \
      "slowest/median $(awk -v a="$slowest" -v b="$median" 'BEGIN { printf "%.2f", a / b }'); RSS$rss"
  }
  if [ "${STEADY:-0}" = only ]; then
    steady_rows
  else
  curl -s -o /dev/null --max-time 60 "http://127.0.0.1:$port/pets" || true   # warm
  measure warm "warm /pets" /pets
  measure located "/pets random location" /pets lua
  if [ -n "$known_id" ]; then measure details "/pets/{id}" "/pets/$known_id"
  else row "$items" "/pets/{id}" - - - - - - - "no id from upstream" -; fi
  measure api "/api/v1/announcements" /api/v1/announcements
  if [ -n "$match_id" ]; then
    curl -s -o /dev/null --max-time 60 "http://127.0.0.1:$port/pets/$match_id" || true   # warm (kept on its second answer)
    measure mdetails "warm /pets/{id} with its matches" "/pets/$match_id"
    measure mapi "warm /api/v1/announcements/{id}/matches" "/api/v1/announcements/$match_id/matches"
  else row "$items" "matches rows" - - - - - - - "no id with matches in the first 40" -; fi
  curl -s -o /dev/null --max-time 60 "http://127.0.0.1:$port/pets.atom" || true   # warm (kept on its second answer)
  measure feed "warm /pets.atom" /pets.atom
  measure feedloc "/pets.atom random location" /pets.atom lua
  # A snapshot refresh under located load: the upstream gives the list a new ETag, so the next
  # revalidation (within --cache-ttl) is a whole new body that our server decodes and indexes while
  # the old snapshot still answers. Peak RSS of that run is the refresh's cost (docs/performance.md).
  if [ "${REFRESH:-1}" != 0 ]; then
    curl -fs --max-time 10 -o /dev/null "http://127.0.0.1:$up_port/__bump" || true
    ROUNDS=1 DURATION=$((TTL + 5)) measure located "/pets random location during a snapshot refresh (${TTL}+5 s)" /pets lua
  fi
  row "$items" "first /pets/{id}/poster of a pet (request time): $first_poster" - - - - - - - - -
  if [ -n "$known_id" ]; then measure poster "warm /pets/{id}/poster" "/pets/$known_id/poster"; fi
  if [ "${STEADY:-0}" != 0 ]; then steady_rows; fi
  if [ "${COMPRESSION:-1}" != 0 ]; then compression_rows; fi
  if [ "${DATABASE:-1}" != 0 ]; then database_rows; fi
  fi

  if [ -n "${SMAPS_DIR:-}" ]; then  # the server's mappings after the whole run (docs/performance.md "Memory")
    mkdir -p "$SMAPS_DIR"; cp "/proc/$server/smaps" "$SMAPS_DIR/smaps-$items" 2>/dev/null || true
    # glibc's own account of its arenas (in use vs held), printed by the server to its log.
    if command -v gdb >/dev/null; then
      timeout 60 gdb -p "$server" -batch -ex 'call (void) malloc_stats()' >/dev/null 2>&1 || true
      sleep 0.5; grep -E '^(Arena|system bytes|in use bytes|Total|max mmap)' "$work/server-$items.log" >"$SMAPS_DIR/malloc-$items" || true
    fi
  fi
  stop_pid "$server"; server=""
  stop_pid "$nginx_pid"; nginx_pid=""
  stop_pid "$upstream"; upstream=""
  rm -rf "$work/nginx-$items"
  unset status ctype
done


if [ "${PHOTOS:-1}" != 0 ]; then
  echo "== photos (20 phone-like 12 MP JPEGs)"
  venv=.build-bench/venv
  if ! "$venv/bin/python" -c 'import PIL, playwright' 2>/dev/null; then
    python3 -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check -r browser-tests/requirements.txt >/dev/null
  fi
  ensure_packages chromium
  photos="$work/photos"
  "$venv/bin/python" scripts/photo_fixtures.py "$photos" --count 20 --megapixels 12 >"$work/photos.log"
  echo "   fixtures: $(awk '{ s += $2 } END { printf "%d files, %.1f MB on average", NR, s / NR / 1e6 }' "$work/photos.log")"
  up_port=$(free_port)
  python3 scripts/bench/upstream.py --items 38 --port "$up_port" --seed "$SEED" --photos "$photos" 2>"$work/upstream.log" &
  upstream=$!
  for _ in $(seq 1 100); do curl -fs --max-time 2 "http://127.0.0.1:$up_port/api/health" >/dev/null 2>&1 && break; sleep 0.2; done
  port=$(free_port)
  "$BIN" --port "$port" --upstream "http://127.0.0.1:$up_port" --public-dir Public --templates-dir Templates \
    --log-level debug --cache-ttl "$TTL" >"$work/server-photos.log" 2>&1 &
  server=$!
  for _ in $(seq 1 100); do curl -fs --max-time 2 -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done

  # First 640 px variant of five different photos (cold: nothing cached).
  stats0=$(upstream_stats)
  : >"$work/first.txt"
  for n in 1 2 3 4 5; do
    curl -s -o /dev/null --max-time 60 -w '%{time_total}\n' "http://127.0.0.1:$port/images/pet-$n.jpg?w=640" >>"$work/first.txt"
  done
  stats1=$(upstream_stats)
  median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.0f ms (%.0f–%.0f)", v[int((NR + 1) / 2)], v[1], v[NR]; else print "-" }'; }
  request_ms=$(awk '{ print $1 * 1000 }' "$work/first.txt" | median)
  convert_ms=$(grep 'photo variant made' "$work/server-photos.log" | grep -o 'ms=[0-9]*' | cut -d= -f2 | median)
  echo "   first 640 px variant of a 12 MP JPEG: request $request_ms, conversion $convert_ms"
  row 38 "first 640 px variant of a 12 MP JPEG (5 photos): request $request_ms, of which conversion $convert_ms" - - - - - - \
    "$(( $(stats_field "$stats1" image_calls) - $(stats_field "$stats0" image_calls) )) photo calls" 0 "$(mb "$(rss_kb "$server")")"

  # Warm 640 px thumbnail against nginx serving the same bytes, on a server that logs warnings
  # only like the page rows (the server above logs every request at debug level, for the timings).
  stop_pid "$server"
  "$BIN" --port "$port" --upstream "http://127.0.0.1:$up_port" --public-dir Public --templates-dir Templates \
    --log-level warning --cache-ttl "$TTL" >"$work/server-photos-warm.log" 2>&1 &
  server=$!
  for _ in $(seq 1 100); do curl -fs --max-time 2 -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
  root="$work/nginx-photos/root"
  mkdir -p "$root/b"
  curl -s -o "$root/b/thumb" --max-time 60 "http://127.0.0.1:$port/images/pet-1.jpg?w=640"
  echo "   warm thumbnail: $(stat -c %s "$root/b/thumb") bytes"
  ng_port=$(free_port)
  start_nginx "$work/nginx-photos" "$ng_port" "$root" "thumb=image/webp"
  before=$(upstream_stats)
  run_wrk "$work/ours.txt" "http://127.0.0.1:$port/images/pet-1.jpg?w=640"
  run_wrk "$work/nginx.txt" "http://127.0.0.1:$ng_port/b/thumb"
  after=$(upstream_stats)
  ours=$(wrk_rps "$work/ours.txt"); ng_rps=$(wrk_rps "$work/nginx.txt")
  ratio=$(awk -v a="$ours" -v b="$ng_rps" 'BEGIN { if (b + 0 > 0 && a != "-") printf "%.2f", a / b; else print "-" }')
  echo "   warm 640 px thumbnail: ours $ours req/s, nginx $ng_rps req/s, ratio $ratio"
  row 38 "warm 640 px thumbnail ($(stat -c %s "$root/b/thumb") B)" "$ours" "$(wrk_pct "$work/ours.txt" 50%)" "$(wrk_pct "$work/ours.txt" 99%)" \
    "$ng_rps" "$(wrk_pct "$work/nginx.txt" 99%)" "$ratio" \
    "$(( $(stats_field "$after" image_calls) - $(stats_field "$before" image_calls) )) photo calls" "$(wrk_bad "$work/ours.txt")" "$(mb "$(rss_kb "$server")")"
  stop_pid "$nginx_pid"; nginx_pid=""

  # Bytes Chromium loads for the list page (20 cards with photos), on a fresh server each, so no
  # variant is warm in our cache (the browser's own cache is off).
  for viewport in "360 780" "1280 900"; do
    set -- $viewport
    stop_pid "$server"
    port=$(free_port)
    "$BIN" --port "$port" --upstream "http://127.0.0.1:$up_port" --public-dir Public --templates-dir Templates \
      --log-level warning --cache-ttl "$TTL" >"$work/server-photos-$1.log" 2>&1 &
    server=$!
    for _ in $(seq 1 100); do curl -fs --max-time 2 -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
    result=$(PETSPOT_CHROMIUM="$(command -v chromium)" timeout 180 "$venv/bin/python" scripts/bench/page_bytes.py \
      "http://127.0.0.1:$port/pets" --width "$1" --height "$2" || echo "failed")
    echo "   list page at $1 px: $result"
    summary=$(awk -v r="$result" 'BEGIN { n = split(r, f, /[ =]/); if (n < 8) { print r; exit }
      printf "%.2f MB (%d photos); scrolled to the end %.2f MB (%d photos)", f[2] / 1e6, f[4], f[6] / 1e6, f[8] }')
    row 38 "list page of 20 with 12 MP photos at $1 px: $summary" - - - - - - - - "$(mb "$(rss_kb "$server")")"
  done
  stop_pid "$server"; server=""
  stop_pid "$upstream"; upstream=""
fi
if [ "${REPORTS:-1}" != 0 ]; then
  . scripts/bench/reports.sh
fi
echo
echo "== Results"
echo "| items | measure | ours req/s | p50 | p99 | nginx req/s | nginx p99 | ratio | upstream calls (list/details) | non-2xx | RSS MB (peak during / after) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
cat "$rows"
echo
echo "- machine: $(nproc) cores, $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo), $(awk '/MemTotal/ {printf "%.1f GB RAM", $2 / 1048576}' /proc/meminfo)"
echo "- load average at start: $load_start; at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ); git commit: $(git rev-parse --short HEAD 2>/dev/null || echo -)$(git diff --quiet HEAD -- Sources Templates Public Package.swift 2>/dev/null || echo ' (sources modified)'); binary: $BIN"
echo "- DURATION=${DURATION}s, TTL=${TTL}s (--cache-ttl), SEED=$SEED, upstream: scripts/bench/upstream.py (Python, ThreadingHTTPServer)"
echo "- wrk: wrk -t2 -c64 -d${DURATION}s --timeout $WRK_TIMEOUT --latency URL (random location: -s scripts/bench/random-location.lua, WRK_PATH=/pets or /pets.atom; nginx gets the same script with its own path, so the same request sizes)"
echo "- nginx: $("$NGINX" -v 2>&1 | sed 's/.*version: //'), daemon off, worker_processes auto (one per core), access_log off, sendfile on; it serves the bytes our server returned for /pets, $LOCATED_URL, /pets/{id}, /api/v1/announcements, a pet with matches (/pets/{id}, /api/v1/announcements/{id}/matches), /pets.atom and $LOCATED_FEED_URL, with the same Content-Type"
echo "- non-2xx: wrk's 'Non-2xx or 3xx responses' (status >= 400) plus socket errors (connect/read/write/timeout); ratio = ours / nginx req/s"
echo "- upstream calls: requests the upstream saw during that row (ours + nginx runs; nginx never calls it); first-page row: during startup"
echo "- RSS: max VmRSS of our server sampled every 0.5 s during our wrk run / VmRSS right after it; the refresh row runs TTL + 5 s after the upstream's list changed ETag, so it includes one new snapshot"
echo "- loopback only, wrk and both servers share the same $(nproc) cores"

if [ "${ALERTS:-0}" = 1 ]; then
  echo
  SCALE_BENCH=alerts bash scripts/scale-out.sh || echo "(alert rows failed)"
  bash scripts/bench/alerts-fanout.sh || echo "(fan-out rows failed)"
fi

if [ "${BENCH_DOMAIN:-1}" != 0 ]; then
  echo
  echo "== domain benchmark"
  swift run -c release --scratch-path "$SCRATCH" domain-benchmark || echo "(domain benchmark failed to build or run)"
fi
