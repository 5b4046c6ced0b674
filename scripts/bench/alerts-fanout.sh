#!/usr/bin/env bash
# The alert fan-out's area look-up at scale (docs/alerts-store.md "Index"): a throwaway cluster
# (scripts/lib/postgres.sh) with the alert tables of the real migration step (scripts/bench/alerts_ddl.py
# reads them from Sources/PetSpotPostgres/PostgresSchema+Alerts.swift), SUBSCRIPTIONS (1,000,000) active
# area searches spread uniformly over Poland (lat 49.0–54.8, lng 14.1–24.1; radii from the manage page's
# 1, 2, 5, 10, 15, 25, 50 km; a third with a status filter, half with a species filter), ANALYZE, then
# `searchesContaining`'s query (Sources/PetSpotPostgres/PostgresAlertStore+FanOut.swift) for POINTS (1,000)
# random pets in Poland, with the store's banded indexes and, to compare, with one index and a 50 km box.
# Prints two plans of each with EXPLAIN (ANALYZE, BUFFERS), the p50/p90/p99/max of the server's
# "Execution Time" over all points (EXPLAIN ANALYZE with TIMING OFF, so per-node clocks add nothing),
# the rows each answered, and the table's and indexes' sizes. Target: p99 ≤ 50 ms. The server gets
# shared_buffers = SHARED_BUFFERS (1GB: the table and its indexes fit, as on a server sized for them).
#
#   scripts/bench/alerts-fanout.sh            SUBSCRIPTIONS=100000 POINTS=200 scripts/bench/alerts-fanout.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib/postgres.sh

SUBSCRIPTIONS=${SUBSCRIPTIONS:-1000000}
POINTS=${POINTS:-1000}
PG_FOLDER=
trap '[ -n "$PG_FOLDER" ] && pg_remove "$PG_FOLDER"' EXIT
SHARED_BUFFERS=${SHARED_BUFFERS:-1GB}
pg_new >/dev/null
bin=$(pg_bin)
psql_() { "$bin/psql" -h "$PG_FOLDER" -U postgres -d petspot -v ON_ERROR_STOP=1 -qAt "$@"; }
psql_ -c "ALTER SYSTEM SET shared_buffers = '$SHARED_BUFFERS'"
# An empty cluster: a kill and start (scripts/lib/postgres.sh has no clean stop) loses nothing.
pg_restart "$PG_FOLDER"

python3 scripts/bench/alerts_ddl.py | psql_ >/dev/null
# Timings on a shared machine follow its load: printed with the figures (and again at the end).
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "schema: $(psql_ -c "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'petspot_alert%'") alert tables from the migration step"

started=$(date +%s.%N)
psql_ <<SQL
SELECT setseed(0.42);
-- As PostgresAlertStore.subscribe writes a row: the centre is ll_to_earth(lat, lng), computed at insert.
INSERT INTO petspot_alert_subscription (id, email, address_hash, kind, lat, lng, range_km, status, species,
  frequency, language, state, created_at, centre)
SELECT md5(g::text), 'bench' || g || '@example.org', sha256(convert_to('bench' || g || '@example.org', 'UTF8')), 'search',
  lat, lng, range_km, status, species, 'instant', 'pl', 'active', timestamptz '2026-01-01' + g * interval '1 second',
  ll_to_earth(lat, lng)
FROM (SELECT g, 49.0 + random() * 5.8 AS lat, 14.1 + random() * 10.0 AS lng,
        (ARRAY[1, 2, 5, 10, 15, 25, 50])[1 + floor(random() * 7)::int] AS range_km,
        (ARRAY[NULL, NULL, NULL, NULL, 'missing', 'found'])[1 + floor(random() * 6)::int] AS status,
        (ARRAY[NULL, NULL, 'dog', 'cat'])[1 + floor(random() * 4)::int] AS species
      FROM generate_series(1, $SUBSCRIPTIONS) g) s;
ANALYZE petspot_alert_subscription;
SQL
echo "loaded $SUBSCRIPTIONS subscriptions and analysed in $(echo "$(date +%s.%N) - $started" | bc | cut -c1-5) s"

# Two ways of asking the index, on the same table:
#   bands:  the migration's partial GiST indexes of the centres, one per band of radii (0, 1], (1, 2], (2, 5],
#           (5, 10], (10, 15], (15, 25], (25, 50] km, each asked for a box as wide as its band's largest
#           radius (a BitmapOr), then each candidate's own radius tested — what the store does;
#   single: one GiST index of all centres (created here), asked for the centres in a 50 km box (the
#           largest radius) around the pet, then each candidate's own radius tested.
psql_ <<SQL
CREATE INDEX IF NOT EXISTS petspot_alert_subscription_centre ON petspot_alert_subscription
  USING gist (centre) WHERE kind = 'search' AND state = 'active';
ANALYZE petspot_alert_subscription;
SQL

area() {  # area VARIANT: the index condition of VARIANT (boxes widened by 1.002: PostgresAlertStore.sphereSlack)
  case $1 in
    single) echo "earth_box(pet.point, 50100) @> centre" ;;
    bands)
      local lower=0 upper arms=()
      for upper in 1 2 5 10 15 25 50; do
        arms+=("(range_km > $lower AND range_km <= $upper AND earth_box(pet.point, $((upper * 1002))) @> centre)")
        lower=$upper
      done
      local IFS='|'
      echo "(${arms[*]})" | sed 's/|/ OR /g'
      ;;
  esac
}

# The statement of PostgresAlertStore.searchesContaining (Sources/PetSpotPostgres/PostgresAlertStore+FanOut.swift).
query() {  # query VARIANT LAT LNG STATUS SPECIES
  cat <<SQL
SELECT id, email, kind, lat, lng, range_km, status, species, pet_id, frequency, language, state, created_at
  FROM petspot_alert_subscription, (SELECT ll_to_earth($2, $3) AS point) pet
  WHERE kind = 'search' AND state = 'active' AND $(area "$1")
    AND earth_distance(pet.point, centre) <= range_km * 1002
    AND (status IS NULL OR status = '$4') AND (species IS NULL OR species = '$5')
  ORDER BY created_at, id
SQL
}

for variant in bands single; do
  echo
  for point in "52.2297 21.0122 missing dog" "50.0647 19.9450 found cat"; do
    set -- $point
    echo "== $variant: EXPLAIN (ANALYZE, BUFFERS) at $1, $2 ($3 $4)"
    psql_ -c "EXPLAIN (ANALYZE, BUFFERS) $(query "$variant" "$@")"
    echo
  done

  # POINTS random pets (the same for both variants), each planned with its own values (as postgres-nio's
  # unnamed statements are).
  psql_ <<SQL
SELECT setseed(0.17);
CREATE TEMP TABLE timing (ms double precision, answered bigint);
DO \$\$
DECLARE
  plan json;
  lat float8; lng float8; st text; sp text;
BEGIN
  FOR i IN 1..$POINTS LOOP
    lat := 49.0 + random() * 5.8;
    lng := 14.1 + random() * 10.0;
    st := (ARRAY['missing', 'found'])[1 + floor(random() * 2)::int];
    sp := (ARRAY['dog', 'cat', 'bird'])[1 + floor(random() * 3)::int];
    EXECUTE format(\$q\$EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) $(query "$variant" %s %s %s %s | sed "s/'%s'/%L/g")\$q\$,
      lat, lng, st, sp) INTO plan;
    INSERT INTO timing VALUES ((plan->0->>'Execution Time')::float8, (plan->0->'Plan'->>'Actual Rows')::bigint);
  END LOOP;
END
\$\$;
\echo == $variant: searchesContaining over $POINTS random points (server execution time, ms; rows answered)
SELECT format('p50 %s  p90 %s  p99 %s  max %s ms;  rows p50 %s  max %s',
  round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2),
  round(percentile_cont(0.9) WITHIN GROUP (ORDER BY ms)::numeric, 2),
  round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 2),
  round(max(ms)::numeric, 2),
  percentile_disc(0.5) WITHIN GROUP (ORDER BY answered), max(answered)) FROM timing;
SQL
done

psql_ <<SQL
\echo
\echo == sizes
SELECT format('%-45s %s', c.relname, pg_size_pretty(pg_relation_size(c.oid)))
  FROM pg_class c WHERE c.relname LIKE 'petspot_alert_subscription%' OR c.relname LIKE 'petspot_alert_area%' ORDER BY c.relname;
SELECT format('%-45s %s', 'total (table, TOAST, indexes)', pg_size_pretty(pg_total_relation_size('petspot_alert_subscription')));
SQL

# Autovacuum analyses the table too (with its own search_path): its errors, if any, are in the server's log.
echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "server log errors: $(grep -c ERROR "$PG_FOLDER/postgres.log" || true)"
grep ERROR "$PG_FOLDER/postgres.log" | head -n 5 || true
