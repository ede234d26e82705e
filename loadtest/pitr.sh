#!/usr/bin/env bash
# RPO and RTO of the point-in-time restore (docs/reliability.md), on a running HA stack (./slots stack up --ha):
#   loadtest/pitr.sh [--seats N]   (default 5 100 000)
# 1. N seats in the hot window, written straight into hot_seats (100 places, 30 days, 17 slots a day, N/51 000 seats a slot);
# 2. a full backup, timed;
# 3. RPO: how long a commit waits until its WAL segment is in the repository, on a quiet cluster (archive_timeout
#    bounds it) and right after the load;
# 4. RTO: a marker, the target noted, DROP TABLE hot_seats, ./slots stack restore --to the target, timed;
#    then the seats are counted again.
# It adds its places to the stack's database and leaves them there: run it on a stack made for it.
set -euo pipefail
cd "$(dirname "$0")/.."
seats=5100000
while [ $# -gt 0 ]; do
  case "$1" in
    --seats) seats="$2"; shift 2 ;;
    *) echo "usage: loadtest/pitr.sh [--seats N]" >&2; exit 2 ;;
  esac
done
per_slot=$(( (seats + 50999) / 51000 ))
db=(psql -h 127.0.0.1 -p "${SLOTS_PG_PORT:-55432}" -U postgres -d slots -tAq -v ON_ERROR_STOP=1)
now() { date +%s.%N; }
took() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

echo "Seeding $((51000 * per_slot)) seats ($per_slot a slot)..."
t0=$(now)
"${db[@]}" <<SQL
BEGIN;
CREATE TEMP TABLE pitr_places ON COMMIT DROP AS
WITH made AS (
  INSERT INTO places (name, address, region, time_zone, hot_until)
  SELECT 'PITR ' || g || ' ' || md5(random()::text), 'Hlavná ' || g, 'PITR', 'Europe/Bratislava', current_date + 30
  FROM generate_series(1, 100) g RETURNING id)
SELECT id FROM made;
INSERT INTO slots (place_id, day, start_minute, minutes, capacity, starts_at)
SELECT p.id, current_date + d, 480 + 10 * s, 10, $per_slot, extract(epoch FROM (current_date + d)::timestamp)::bigint + 60 * (480 + 10 * s)
FROM pitr_places p, generate_series(1, 30) d, generate_series(0, 16) s;
INSERT INTO hot_seats (place_id, day, start_minute, seat_no, minutes, starts_at, code)
SELECT place_id, day, start_minute, n, minutes, starts_at, NULL
FROM slots JOIN pitr_places p ON p.id = slots.place_id, generate_series(1, $per_slot) n;
COMMIT;
SQL
t1=$(now)
echo "  seeded in $(took "$t0" "$t1") s; database $("${db[@]}" -c "SELECT pg_size_pretty(pg_database_size('slots'))")"

# RPO right after the load, then on a quiet cluster: a commit, then the wait until its segment is archived.
rpo() {
  local lsn file start; start=$(now)
  "${db[@]}" -c "CREATE TABLE IF NOT EXISTS pitr_marks (at timestamptz); INSERT INTO pitr_marks VALUES (clock_timestamp())"
  lsn=$("${db[@]}" -c "SELECT pg_current_wal_insert_lsn()")
  file=$("${db[@]}" -c "SELECT pg_walfile_name('$lsn')")
  until [ "$("${db[@]}" -c "SELECT coalesce(last_archived_wal, '') >= '$file' FROM pg_stat_archiver")" = t ]; do sleep 0.2; done
  echo "  RPO ($1): the commit's WAL was in the repository $(took "$start" "$(now)") s later"
}
rpo "after the load"
sleep 5
rpo "quiet cluster"

t2=$(now)
./slots stack backup --type full | head -n 1
t3=$(now)
echo "  full backup: $(took "$t2" "$t3") s"

"${db[@]}" -c "INSERT INTO pitr_marks VALUES (clock_timestamp())"
target=$("${db[@]}" -c "SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00'")
sleep 1.1
before=$("${db[@]}" -c "SELECT count(*) FROM hot_seats")
"${db[@]}" -c "DROP TABLE hot_seats"
t4=$(now)
./slots stack restore --to "$target"
t5=$(now)
after=$("${db[@]}" -c "SELECT count(*) FROM hot_seats")
echo "RTO: restore to $target took $(took "$t4" "$t5") s (the script's own figures above); hot_seats $before before the drop, $after after the restore"
[ "$before" = "$after" ] || { echo "hot_seats differ after the restore" >&2; exit 1; }
