#!/usr/bin/env bash
# A reminder run for a day of 100,000 bookings (issue #29's target): how fast the reminders are
# queued, and whether bookings made meanwhile keep their p99.
#   1. One API instance (Release, SQLite, its own port and data folder): a place with 120 slots of
#      840 seats tomorrow, every seat booked (seeded straight into the hot tables: 100,800 bookings),
#      and a second place for new bookings the day after.
#   2. SLOTS_REM_ROUNDS rounds (3), each two windows of SLOTS_REM_SECONDS of bookings at the second
#      place with wrk (8 connections, a new person per request, after a 3 s warm-up): one with
#      reminders off, one with the instance restarted and the day's reminders due at once, going
#      out at SLOTS_REM_RATE per second (Slots:Reminders:PerSecond; the product's default, 20,
#      unless set; batches of SLOTS_REM_BATCH, 100). The windows alternate, so a drift of the
#      machine touches both sides alike. SLOTS_REM_RATE=1000000 SLOTS_REM_BATCH=1000 is the
#      unthrottled worst case.
#
#   loadtest/reminders.sh             → loadtest/results/reminders/summary.md
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${SLOTS_REM_SECONDS:-15}"
rate="${SLOTS_REM_RATE:-20}"        # Slots:Reminders:PerSecond for the run (20 is the product's default)
batch="${SLOTS_REM_BATCH:-100}"
rounds="${SLOTS_REM_ROUNDS:-3}"   # pairs of windows: one without reminders, one while they go out
artifacts="${SLOTS_BENCH_ARTIFACTS:-$PWD/artifacts}"
results=loadtest/results/reminders
mkdir -p "$results"
work="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
admin_key="reminders-bench-admin-key-0123456789"
api_pid=""
cleanup() { [ -n "$api_pid" ] && kill "$api_pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
command -v wrk >/dev/null || { echo "needs wrk (apt-get install wrk)" >&2; exit 2; }

dotnet build api/Slots.Api -c Release -warnaserror --nologo -v quiet "-p:ArtifactsPath=$artifacts"

start_api() {  # $1: reminders enabled
  ASPNETCORE_ENVIRONMENT=Production \
  ConnectionStrings__Slots="Data Source=$work/slots.db" \
  Slots__Persons__HmacSecret="reminders-bench-secret-of-enough-length" \
  Slots__WaitingRoom__SigningKey="reminders-bench-waiting-room-key-0123456789abcdef" \
  Slots__Admin__Keys__bench__Key="$admin_key" Slots__Admin__Keys__bench__Role=admin \
  Slots__RateLimits__WritesPerWindow=10000000 Slots__RateLimits__ReadsPerWindow=10000000 \
  Slots__DemoData__WhenEmpty=false Slots__Frontend__Root="$work" \
  Slots__Sms__File__Path="$work/sms.jsonl" \
  Slots__Reminders__Enabled="$1" Slots__Reminders__LocalTime=00:00 Slots__Reminders__PerSecond="$rate" Slots__Reminders__Batch="$batch" \
  Slots__Scheduler__RemindersEvery=00:00:01 \
    dotnet "$artifacts/bin/Slots.Api/release/Slots.Api.dll" --urls "$base" >>"$work/api.log" 2>&1 &
  api_pid=$!
  for _ in $(seq 1 120); do curl -fs "$base/health/ready" >/dev/null 2>&1 && break; sleep 0.5; done
}
stop_api() { kill "$api_pid"; wait "$api_pid" 2>/dev/null || true; api_pid=""; }
place() {
  curl -fs -H "X-Api-Key: $admin_key" -H 'Content-Type: application/json' "$base/api/admin/places" \
    -d "{\"name\":\"$1\",\"address\":\"Hlavná 1, 040 01 Košice\",\"region\":\"Košický kraj\",\"timeZone\":\"Europe/Bratislava\"}" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])'
}
slots() {  # place, day, capacity
  curl -fs -H "X-Api-Key: $admin_key" -H 'Content-Type: application/json' "$base/api/admin/slots/generate" \
    -d "{\"placeIds\":[$1],\"from\":\"$2\",\"to\":\"$2\",\"template\":{\"firstStart\":\"08:00\",\"lastStart\":\"17:55\",\"intervalMinutes\":5,\"lengthMinutes\":5},\"capacity\":$3}" >/dev/null
}

tomorrow=$(TZ=Europe/Bratislava date -d tomorrow +%F)
later=$(TZ=Europe/Bratislava date -d '+2 days' +%F)
start_api false
busy=$(place "Očkovacie centrum Hlavná")
fresh=$(place "Poliklinika Juh")
slots "$busy" "$tomorrow" 840
slots "$fresh" "$later" 10000
stop_api
seeded=$(python3 loadtest/reminders/seed.py "$work/slots.db" "$busy" "$tomorrow")

export SLOTS_BOOK_PLACE="$fresh" SLOTS_BOOK_DAY="$later"
p99_ms() {  # wrk --latency's 99% line, in milliseconds
  awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 } printf "%.1f", v }' "$1"
}
per_second() { awk '$1 == "Requests/sec:" { printf "%.0f", $2 }' "$1"; }
reminded_now() { python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1], timeout=30).execute("SELECT COUNT(*) FROM reminders").fetchone()[0])' "$work/slots.db"; }

# Rounds of the same booking load, without and with reminders going out, one after the other, so
# a drift of the machine over the minutes touches both sides alike (one pair of windows moved the
# baseline's p99 between 28 and 82 ms on the 2-core VM). Every window follows a warm-up of 3 s.
offset=0
for round in $(seq 1 "$rounds"); do
  for side in without during; do
    enabled=false; [ "$side" = during ] && enabled=true
    before=$(reminded_now)
    start_api "$enabled"
    offset=$((offset + 100000))
    SLOTS_BOOK_OFFSET=$offset wrk -t 2 -c 8 -d 3s -s loadtest/reminders/book.lua "$base/api/reservations" >/dev/null   # warm-up
    offset=$((offset + 100000))
    window_start=$(date +%s.%N)
    SLOTS_BOOK_OFFSET=$offset wrk -t 2 -c 8 -d "${seconds}s" --latency -s loadtest/reminders/book.lua "$base/api/reservations" >"$work/$side-$round.txt"
    window_end=$(date +%s.%N)
    after=$(reminded_now)
    stop_api
    echo "$round $side $(p99_ms "$work/$side-$round.txt") $(per_second "$work/$side-$round.txt") $((after - before)) $(python3 -c "print(f'{$window_end - $window_start:.1f}')")" >>"$work/rounds.txt"
    tail -1 "$work/rounds.txt"
  done
done
queued=$(python3 -c 'import sqlite3,sys; print(*sqlite3.connect(sys.argv[1], timeout=30).execute("SELECT COUNT(*), COUNT(DISTINCT code) FROM outbox WHERE kind = 5").fetchone())' "$work/slots.db")
reminded=$(reminded_now)

{
  echo "# A reminder run for a day of $seeded bookings ($(date -u +%FT%TZ), $(nproc) cores, SQLite, 1 instance, Release)"
  echo
  echo "Command: \`loadtest/reminders.sh\` (SLOTS_REM_SECONDS=$seconds SLOTS_REM_RATE=$rate SLOTS_REM_BATCH=$batch SLOTS_REM_ROUNDS=$rounds): Slots:Reminders:PerSecond $rate, batches of $batch."
  echo
  echo "Reminders queued over the whole run: $reminded of $seeded; SMS rows (rows, distinct codes): $queued."
  echo
  echo "Bookings at another place, 8 connections, wrk (loadtest/reminders/book.lua), ${seconds} s windows after a 3 s warm-up:"
  echo
  echo "| round | reminders | booking p99 (ms) | bookings/s | reminders queued in the window |"
  echo "|---:|---|---:|---:|---:|"
  while read -r r side p99 rps queued_in secs; do
    echo "| $r | $([ "$side" = during ] && echo "going out at $rate/s" || echo none) | $p99 | $rps | $queued_in |"
  done <"$work/rounds.txt"
  echo
  python3 - "$work/rounds.txt" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
for side, label in (("without", "without reminders"), ("during", "while reminders go out")):
    p99 = [float(r[2]) for r in rows if r[1] == side]
    rps = [float(r[3]) for r in rows if r[1] == side]
    print(f"- {label}: booking p99 median {statistics.median(p99):.1f} ms (range {min(p99):.1f}-{max(p99):.1f}), bookings/s median {statistics.median(rps):,.0f}")
PY
} >"$results/summary.md"
cat "$results/summary.md"
