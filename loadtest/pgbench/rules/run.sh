#!/usr/bin/env bash
# What invitation codes cost the database alone (issue 41): slots_apply with 16 bookings a call, on the real
# path and with a code each on an invitation-only service (book.sql, -D codes=0 and 1), one pgbench client, in
# alternating runs after a pair not counted (the caches), the codes given back and vacuumed before each, and each
# run started right after a checkpoint, as the benchmark's runs are. Prints each run's transactions per second and
# its WAL per booking (records, full-page images, bytes: pg_stat_wal), where pg_stat_statements is loaded
# (track = all) each run's costliest statements inside the functions, and at the end the medians and what the
# codes cost.
# On a seeded database (Slots.LoadTest seed), which it leaves as it found it but for the bookings made.
#   loadtest/pgbench/rules/run.sh "host=127.0.0.1 port=5432 user=postgres dbname=slots" [seconds=6] [pairs=4]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
db=${1:?a libpq connection string of a seeded database}
seconds=${2:-6}
pairs=${3:-4}
psql() { command psql "$db" -X -q -At -v ON_ERROR_STOP=1 "$@"; }
psql -f "$here/setup.sql"
trap 'psql -f "$here/teardown.sql"' EXIT
statements=$(psql -c "SELECT count(*) FROM pg_extension WHERE extname = 'pg_stat_statements' AND current_setting('shared_preload_libraries') ~ 'pg_stat_statements'")
real_tps=(); invite_tps=(); real_wal=(); invite_wal=()
wal() { psql -F ' ' -c "SELECT wal_records, wal_fpi, wal_bytes FROM pg_stat_wal"; }
for pair in $(seq 0 "$pairs"); do
  for path in real invite; do
    psql -c "UPDATE invitation_codes SET person_hash = NULL, spent_code = NULL, spent_at = NULL WHERE spent_at IS NOT NULL"
    psql -c "VACUUM invitation_codes"
    if [ "$path" = invite ]; then
      psql -c "INSERT INTO service_eligibility (service_id, rule) VALUES (1, 2) ON CONFLICT (service_id) DO UPDATE SET rule = 2"
    else
      psql -c "DELETE FROM service_eligibility WHERE service_id = 1"
    fi
    [ "$statements" = 1 ] && psql -c "SELECT pg_stat_statements_reset()" >/dev/null
    psql -c "CHECKPOINT"
    before=$(wal)
    out=$(pgbench -n -M prepared -c 1 -j 1 -T "$seconds" -D codes="$([ "$path" = invite ] && echo 1 || echo 0)" -f "$here/book.sql" "$db" 2>&1) ||
      { printf '%s\n' "$out" >&2; exit 1; }
    after=$(wal)
    tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out")
    made=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' <<<"$out")
    # WAL per booking: records, full-page images, bytes (16 bookings a transaction).
    read -r records fpi bytes < <(awk -v a="$before" -v b="$after" -v n="$made" \
      'BEGIN {split(a, x, " "); split(b, y, " "); n *= 16; printf "%.2f %.3f %.0f\n", (y[1] - x[1]) / n, (y[2] - x[2]) / n, (y[3] - x[3]) / n}')
    if [ "$pair" = 0 ]; then
      echo "warm-up $path: $tps transactions/s (not counted)"
      continue
    fi
    echo "pair $pair $path: $tps transactions/s (16 bookings each); WAL a booking: $records records, $fpi full-page images, $bytes bytes"
    if [ "$path" = real ]; then real_tps+=("$tps"); real_wal+=("$bytes"); else invite_tps+=("$tps"); invite_wal+=("$bytes"); fi
    if [ "$statements" = 1 ]; then
      psql -F ' | ' -c "SELECT round((total_exec_time / calls)::numeric, 3) AS ms, calls, left(regexp_replace(query, '\s+', ' ', 'g'), 70)
                        FROM pg_stat_statements WHERE NOT toplevel ORDER BY total_exec_time DESC LIMIT 6"
    fi
  done
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
real=$(median "${real_tps[@]}")
invite=$(median "${invite_tps[@]}")
awk -v r="$real" -v i="$invite" -v n="$pairs" \
  'BEGIN {printf "median of %d: real path %.1f, invitation codes %.1f transactions/s: the codes cost %.1f %%\n", n, r, i, 100 * (1 - i / r)}'
awk -v r="$(median "${real_wal[@]}")" -v i="$(median "${invite_wal[@]}")" \
  'BEGIN {printf "WAL a booking, median: real path %.0f bytes, invitation codes %.0f bytes (%+.1f %%)\n", r, i, 100 * (i / r - 1)}'
