#!/usr/bin/env bash
# The ceiling: the real path's bookings as bare set-based SQL on the same PostgreSQL server and seeded
# data (pgbench, book.sql: batches of bookings in one statement per transaction, durable), in a scratch
# table of its own (setup.sql, dropped with teardown.sql, which also frees the seats it took).
# What the database alone can book; loadtest/run.sh divides the real path's bookings per second by it.
#
#   loadtest/ceiling/ceiling.sh --out FILE.json [--seconds 10] [--clients 16] [--batch 32]
#
# The server from the libpq environment (PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD); pgbench and psql
# from PG_BIN, else the newest /usr/lib/postgresql/*/bin, else PATH.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

out="" seconds=10 clients=16 batch=32
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --clients) clients="$2"; shift 2 ;;
    --batch) batch="$2"; shift 2 ;;
    *) echo "usage: loadtest/ceiling/ceiling.sh --out FILE.json [--seconds S] [--clients N] [--batch N]" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || { echo "--out is required" >&2; exit 2; }

bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
pgbench="${bin:+$bin/}pgbench" psql="${bin:+$bin/}psql"
command -v "$pgbench" >/dev/null || { echo "pgbench not found (PostgreSQL's client tools)" >&2; exit 1; }

# The seeded places (the seeder numbers them from 1; a waiting-room place made later is not in the range).
read -r first last < <("$psql" -Atc "SELECT min(id), max(id) FROM places WHERE name LIKE 'Load site %'" | tr '|' ' ')
[ -n "$first" ] || { echo "ceiling: no seeded places (Slots.LoadTest seed) in this database" >&2; exit 1; }
"$psql" -q -v ON_ERROR_STOP=1 -f "$here/setup.sql"
trap '"$psql" -q -v ON_ERROR_STOP=1 -f "$here/teardown.sql" || echo "ceiling: teardown failed" >&2' EXIT

log=$(PGOPTIONS="-c synchronous_commit=on" "$pgbench" -n -M prepared -c "$clients" -j 2 -T "$seconds" \
  -D first="$first" -D last="$last" -D batch="$batch" -f "$here/book.sql" 2>&1) || { echo "$log" >&2; exit 1; }
bookings=$("$psql" -Atc "SELECT count(*) FROM ceiling_bookings")
# The seats book.sql draws from: a run that books a large share of them measures "slot full" more than booking.
in_range=$("$psql" -Atc "SELECT count(*) FROM hot_seats WHERE place_id BETWEEN $first AND $last AND day BETWEEN current_date + 1 AND current_date + 28")
durable=$("$psql" -Atc "SELECT current_setting('fsync') = 'on' AND current_setting('synchronous_commit') = 'on'")
tps=$(echo "$log" | awk '/^tps = / {print $3}')
latency=$(echo "$log" | awk '/^latency average = / {print $4}')
failed=$(echo "$log" | awk '/^number of failed transactions:/ {print $5}')
processed=$(echo "$log" | awk '/^number of transactions actually processed:/ {print $6}')
jq -n --argjson bookings "$bookings" --argjson seconds "$seconds" --argjson clients "$clients" --argjson batch "$batch" \
  --argjson tps "${tps:-0}" --argjson latency "${latency:-0}" --argjson failed "${failed:-0}" --argjson processed "${processed:-0}" --argjson places "$((last - first + 1))" --argjson inRange "$in_range" \
  --argjson durable "$([ "$durable" = t ] && echo true || echo false)" \
  '{tool: "pgbench", bookingsPerSecond: (if $processed > 0 then $tps * $bookings / $processed else 0 end | . * 10 | round / 10),
    bookings: $bookings, transactions: $processed, seconds: $seconds,
    clients: $clients, batch: $batch, transactionsPerSecond: $tps, latencyAverageMs: $latency, failedTransactions: $failed,
    places: $places, seatsInRange: $inRange, durable: $durable}' > "$out"
# Per second as pgbench timed its transactions (without connecting), times the bookings a transaction made.
echo "ceiling: $bookings bookings in $processed transactions, $(jq '.bookingsPerSecond' "$out")/s ($clients clients, $batch per transaction, $tps transactions/s, durable $durable)"
