#!/bin/sh
# The first start initialises $PGDATA with POSTGRES_USER / POSTGRES_PASSWORD (scram) and creates
# POSTGRES_DB, as the official image does; every start then runs the server in the foreground.
set -eu
: "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}"
[ -n "${POSTGRES_PASSWORD:-}" ] || { echo "POSTGRES_PASSWORD is required" >&2; exit 1; }
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" -A scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -k /run/postgresql" -w start >/dev/null
  if [ "$POSTGRES_DB" != postgres ]; then
    PGPASSWORD=$POSTGRES_PASSWORD psql -h /run/postgresql -U "$POSTGRES_USER" -d postgres -qAt \
      -c "CREATE DATABASE \"$POSTGRES_DB\""
  fi
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec postgres -D "$PGDATA" -c listen_addresses='*' -k /run/postgresql
