#!/usr/bin/env bash
# Two versions of one of slots_apply's SQL functions at the database alone: each version's file applied in turn
# (CREATE OR REPLACE), then pgbench runs book.sql (16 bookings a call, one client) on the real path, or with a code a
# booking (CODES=1); alternating runs after a pair not counted. Prints each run's transactions per second and, from
# pg_stat_statements (track = all), the milliseconds and shared buffers a call of the costliest statement inside the
# functions whose text starts with STATEMENT (default: step 3's read). Puts version A back at the end.
# On a seeded database (Slots.LoadTest seed), which it leaves as it found it but for the bookings made.
#   loadtest/pgbench/rules/ab.sh "host=127.0.0.1 port=5432 user=postgres dbname=slots" A.sql B.sql [seconds=8] [pairs=5]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
db=${1:?a libpq connection string of a seeded database}
a=${2:?version A of the function file}
b=${3:?version B of the function file}
seconds=${4:-8}
pairs=${5:-5}
codes=${CODES:-0}
statement=${STATEMENT:-SELECT array_agg(coalesce(c.status}
psql() { command psql "$db" -X -q -At -v ON_ERROR_STOP=1 "$@"; }
[ "$(psql -c "SELECT count(*) FROM pg_extension WHERE extname = 'pg_stat_statements'")" = 1 ] \
  || { echo "ab.sh needs pg_stat_statements (shared_preload_libraries, CREATE EXTENSION)" >&2; exit 1; }
psql -f "$here/setup.sql"
trap 'psql -f "$a" >/dev/null 2>&1; psql -f "$here/teardown.sql"' EXIT
if [ "$codes" = 1 ]; then
  psql -c "INSERT INTO service_eligibility (service_id, rule) VALUES (1, 2) ON CONFLICT (service_id) DO UPDATE SET rule = 2"
else
  psql -c "DELETE FROM service_eligibility WHERE service_id = 1"
fi
for pair in $(seq 0 "$pairs"); do
  for version in A B; do
    psql -c "SET client_min_messages = warning" -f "$([ "$version" = A ] && echo "$a" || echo "$b")"
    psql -c "UPDATE invitation_codes SET person_hash = NULL, spent_code = NULL, spent_at = NULL WHERE spent_at IS NOT NULL"
    psql -c "VACUUM invitation_codes"
    psql -c "SELECT pg_stat_statements_reset()" >/dev/null
    tps=$(pgbench -n -M prepared -c 1 -j 1 -T "$seconds" -D codes="$codes" -f "$here/book.sql" "$db" 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
    cost=$(psql -v pattern="$statement%" <<'SQL'
SELECT round((total_exec_time / calls)::numeric, 3) || ' ms, ' || round(shared_blks_hit::numeric / calls, 1) || ' buffers a call'
FROM pg_stat_statements WHERE NOT toplevel AND query LIKE :'pattern' ORDER BY total_exec_time DESC LIMIT 1;
SQL
)
    echo "$([ "$pair" = 0 ] && echo "warm-up (not counted)" || echo "pair $pair") $version: $tps transactions/s; the statement: $cost"
  done
done
