# The report rows of scripts/bench.sh (docs/report-flow.md), sourced by it after the photo rows
# (REPORTS=0 skips them; REPORTS_ONLY=1 runs only these). Uses bench.sh's helpers and variables:
# $BIN, $work, free_port, start_nginx, run_wrk, wrk_rps, wrk_pct, wrk_bad, rss_kb, mb, row, stop_pid,
# server, nginx_pid; Pillow (for the photos) from the .build-bench/venv the photo rows use too.
#
# One server on the embedded demo upstream (no --upstream: the write API in memory, as
# ./scripts/serve.sh runs it) with --report-limit 0, logging warnings only. Photos: phone-like
# 12 MP JPEGs (scripts/photo_fixtures.py --megapixels 12: 2–3 MB, EXIF orientation 6, GPS).
#   (a) end to end: REPORT_COUNT (10) reports one after another with curl (multipart POST /report,
#       our Origin), median and range of curl's time_total; each must answer 201. The photo step
#       alone = the median of the same form refused for its missing contact (422: the photo is
#       received, checked, converted and kept, and nothing goes upstream) minus the median of that
#       refused form without a photo (the form's own cost): the server logs no conversion time.
#   (b) while 4 uploaders send such reports in a loop (each bounded to REPORT_LOOP_MAX reports and
#       to the wrk run), warm /pets under wrk against nginx serving the bytes /pets had just before.
#   (d) the same end to end through a server whose write store is PostgreSQL (a throwaway cluster,
#       scripts/lib/postgres.sh; docs/replicas.md), and the store's share of it: the sum of
#       petspot_store_duration_seconds over those reports, from /metrics, per report.
#   (c) peak RSS growth during 8 concurrent 20 MB uploads (20,000,000 bytes: a valid 12 MP JPEG
#       padded after its end-of-image marker, so the whole body is read and the photo converted as
#       a real one; sent with a valid form), sampled every 0.1 s; baseline = RSS just before.
# Rows go to bench.sh's table; each also prints its curl command.

report_fields() {  # report_fields [contact]: curl -F arguments of a valid found-cat report (yesterday)
  local day
  day=$(date -u -d yesterday +%Y-%m-%d)
  printf '%s\n' -F status=FOUND -F species=CAT -F sex=UNKNOWN -F "lastSeenDate=$day" \
    -F locationLatitude=50.0614 -F locationLongitude=19.9366 -F "description=Bench cat"
  [ "${1:-contact}" = contact ] && printf '%s\n' -F phone=600100200
  return 0
}
post_report() {  # post_report OUT_CODE_AND_TIME contact|none [PHOTO]: one multipart POST /report
  local out=$1 contact=$2 photo=${3:-} args=()
  mapfile -t args < <(report_fields "$contact")
  [ -n "$photo" ] && args+=(-F "photo=@$photo;type=image/jpeg")
  curl -s -o /dev/null --max-time 120 -H "Origin: http://127.0.0.1:$port" -w '%{http_code} %{time_total}\n' \
    "${args[@]}" "http://127.0.0.1:$port/report" >>"$out" || echo "000 0" >>"$out"
}
median_ms() { awk '{ print $2 * 1000 }' "$1" | sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.0f ms (%.0f–%.0f)", v[int((NR + 1) / 2)], v[1], v[NR]; else print "-" }'; }
median_only() { awk '{ print $2 * 1000 }' "$1" | sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.0f", v[int((NR + 1) / 2)]; else print 0 }'; }
not_status() { awk -v s="$2" '$1 != s { n++ } END { print n + 0 }' "$1"; }

echo "== reports (demo upstream, 12 MP phone JPEGs, --report-limit 0)"
REPORT_COUNT=${REPORT_COUNT:-10}
REPORT_LOOP_MAX=${REPORT_LOOP_MAX:-200}
rvenv=.build-bench/venv
if ! "$rvenv/bin/python" -c 'import PIL' 2>/dev/null; then
  python3 -m venv "$rvenv" && "$rvenv/bin/pip" install -q --disable-pip-version-check -r browser-tests/requirements.txt >/dev/null
fi
rphotos="$work/report-photos"
"$rvenv/bin/python" scripts/photo_fixtures.py "$rphotos" --count 4 --megapixels 12 >"$work/report-photos.log"
photo=$(ls "$rphotos"/*.jpg | head -n 1)
echo "   fixtures: $(awk '{ s += $2 } END { printf "%d files, %.1f MB on average", NR, s / NR / 1e6 }' "$work/report-photos.log")"
port=$(free_port)
"$BIN" --port "$port" --public-dir Public --templates-dir Templates --log-level warning --report-limit 0 \
  >"$work/server-reports.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -fs --max-time 2 -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
curl -s -o /dev/null --max-time 30 "http://127.0.0.1:$port/pets" || true

# (a) end to end, then the photo step alone (refused forms: nothing upstream).
: >"$work/made.txt"; : >"$work/refused-photo.txt"; : >"$work/refused-bare.txt"
for _ in $(seq 1 "$REPORT_COUNT"); do post_report "$work/made.txt" contact "$photo"; done
for _ in $(seq 1 "$REPORT_COUNT"); do post_report "$work/refused-photo.txt" none "$photo"; done
for _ in $(seq 1 "$REPORT_COUNT"); do post_report "$work/refused-bare.txt" none; done
made=$(median_ms "$work/made.txt")
photo_step=$(awk -v a="$(median_only "$work/refused-photo.txt")" -v b="$(median_only "$work/refused-bare.txt")" 'BEGIN { printf "%.0f ms", a - b }')
bad="$(not_status "$work/made.txt" 201) not 201, $(not_status "$work/refused-photo.txt" 422)+$(not_status "$work/refused-bare.txt" 422) not 422"
echo "   report with a $(stat -c %s "$photo") B 12 MP JPEG, end to end: $made; photo step alone: $photo_step" \
  "(refused with photo $(median_ms "$work/refused-photo.txt"), without $(median_ms "$work/refused-bare.txt")); $bad"
echo "   command: curl -H 'Origin: http://127.0.0.1:PORT' -F status=FOUND … -F phone=600100200 -F photo=@12mp.jpg http://127.0.0.1:PORT/report"
row demo "report with a 12 MP JPEG ($(stat -c %s "$photo") B), end to end, median of $REPORT_COUNT: $made; photo step alone $photo_step" \
  - - - - - - "demo upstream" "$bad" "$(mb "$(rss_kb "$server")")"

# (b) warm /pets under wrk while 4 uploaders loop (each bounded in count and by the flag file).
root="$work/nginx-reports/root"
mkdir -p "$root/b"
curl -s -o "$root/b/warm" --max-time 60 "http://127.0.0.1:$port/pets"
ng_port=$(free_port)
start_nginx "$work/nginx-reports" "$ng_port" "$root" "warm=text/html; charset=utf-8"
touch "$work/uploading"
uploaders=()
for n in 1 2 3 4; do
  : >"$work/upload-$n.txt"
  ( for _ in $(seq 1 "$REPORT_LOOP_MAX"); do [ -e "$work/uploading" ] || break
      post_report "$work/upload-$n.txt" contact "$rphotos/$(ls "$rphotos" | grep jpg | sed -n "${n}p")"; done ) &
  uploaders+=($!)
done
sleep 1
run_wrk "$work/ours-reports.txt" "http://127.0.0.1:$port/pets"
rm -f "$work/uploading"
for pid in "${uploaders[@]}"; do wait "$pid" 2>/dev/null || true; done
uploaded=$(cat "$work"/upload-*.txt | wc -l)
upload_bad=$(cat "$work"/upload-*.txt | awk '$1 != 201 { n++ } END { print n + 0 }')
run_wrk "$work/nginx-reports.txt" "http://127.0.0.1:$ng_port/b/warm"
ours=$(wrk_rps "$work/ours-reports.txt"); ng_rps=$(wrk_rps "$work/nginx-reports.txt")
ratio=$(awk -v a="$ours" -v b="$ng_rps" 'BEGIN { if (b + 0 > 0 && a != "-") printf "%.2f", a / b; else print "-" }')
echo "   warm /pets while 4 reports upload: ours $ours req/s, nginx $ng_rps req/s, ratio $ratio; $uploaded reports sent ($upload_bad not 201)"
row demo "warm /pets while 4 reports with 12 MP JPEGs upload in a loop ($uploaded sent, $upload_bad not 201)" "$ours" \
  "$(wrk_pct "$work/ours-reports.txt" 50%)" "$(wrk_pct "$work/ours-reports.txt" 99%)" "$ng_rps" \
  "$(wrk_pct "$work/nginx-reports.txt" 99%)" "$ratio" "demo upstream" "$(wrk_bad "$work/ours-reports.txt")" "$(mb "$(rss_kb "$server")")"
stop_pid "$nginx_pid"; nginx_pid=""

# (c) RSS growth with 8 concurrent 20 MB uploads (a real JPEG padded to 20,000,000 bytes).
big="$work/big.jpg"
cp "$photo" "$big"
head -c $((20000000 - $(stat -c %s "$photo"))) /dev/zero >>"$big"
before=$(rss_kb "$server")
: >"$work/big.txt"
touch "$work/sampling-big"
( max=0; i=0; while [ -e "$work/sampling-big" ] && [ "$i" -lt 1200 ]; do
    v=$(rss_kb "$server"); [ "${v:-0}" -gt "$max" ] && max=$v; i=$((i + 1)); sleep 0.1; done; echo "$max" >"$work/rss-big" ) &
sampler=$!
bigs=()
for _ in 1 2 3 4 5 6 7 8; do post_report "$work/big.txt" contact "$big" & bigs+=($!); done
for pid in "${bigs[@]}"; do wait "$pid" 2>/dev/null || true; done
rm -f "$work/sampling-big"; wait "$sampler" 2>/dev/null || true; sampler=""
peak=$(cat "$work/rss-big" 2>/dev/null || echo 0)
growth=$(( (peak - before) / 1024 ))
statuses=$(awk '{ print $1 }' "$work/big.txt" | sort | uniq -c | awk '{ printf "%s%s×%s", (NR > 1 ? ", " : ""), $1, $2 }')
echo "   8 concurrent 20 MB uploads: RSS $(mb "$before") MB before, peak $(mb "$peak") MB, growth $growth MB; statuses $statuses"
row demo "8 concurrent 20,000,000 B uploads (12 MP JPEG padded after its end marker, valid form): RSS growth $growth MB (before $(mb "$before"), peak $(mb "$peak")); answers $statuses" \
  - - - - - - "demo upstream" - "$(mb "$peak")"
stop_pid "$server"; server=""

# (d) end to end with the shared store: the same reports through a server on a throwaway PostgreSQL.
. scripts/lib/postgres.sh
ensure_packages postgresql
if [ -n "${PG_FOLDER:-}" ] || pg_new >/dev/null; then
  port=$(free_port)
  "$BIN" --port "$port" --public-dir Public --templates-dir Templates --log-level warning --report-limit 0 \
    --database-url "$(pg_url "$PG_FOLDER")" >"$work/server-reports-pg.log" 2>&1 &
  server=$!
  for _ in $(seq 1 100); do curl -fs --max-time 2 -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
  curl -s -o /dev/null --max-time 30 "http://127.0.0.1:$port/pets" || true
  : >"$work/made-pg.txt"
  # The first write waits for the schema; one report before the measured ones.
  post_report "$work/made-pg-warmup.txt" contact "$photo"
  store_before=$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^petspot_store_duration_seconds_sum/ { s += $2 } END { print s + 0 }')
  for _ in $(seq 1 "$REPORT_COUNT"); do post_report "$work/made-pg.txt" contact "$photo"; done
  store_after=$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^petspot_store_duration_seconds_sum/ { s += $2 } END { print s + 0 }')
  store_ms=$(awk -v a="$store_before" -v b="$store_after" -v n="$REPORT_COUNT" 'BEGIN { printf "%.1f ms", (b - a) * 1000 / n }')
  made_pg=$(median_ms "$work/made-pg.txt")
  bad_pg="$(not_status "$work/made-pg.txt" 201) not 201"
  echo "   with PostgreSQL as the write store: end to end $made_pg; the store's share $store_ms per report; $bad_pg"
  row demo "report with a 12 MP JPEG, end to end with PostgreSQL as the write store, median of $REPORT_COUNT: $made_pg; the store's share $store_ms per report" \
    - - - - - - "demo upstream + PostgreSQL" "$bad_pg" "$(mb "$(rss_kb "$server")")"
  stop_pid "$server"; server=""
else
  echo "   (no PostgreSQL: the row with the shared store is skipped)"
fi
