#!/usr/bin/env bash
# A reminder run for a day of 100,000 bookings (issue #29's target): how fast the reminders are
# queued, and whether bookings made meanwhile keep their p99.
#   1. One API instance (Release, SQLite, its own port and data folder) with reminders off: a place
#      with 120 slots of 840 seats tomorrow, every seat booked (seeded straight into the hot tables:
#      100,800 bookings), and a second place for new bookings the day after. Baseline: bookings at
#      the second place for SLOTS_REM_SECONDS with wrk (8 connections, a new person per request).
#   2. The same instance restarted with reminders due at once, at SLOTS_REM_RATE per second
#      (Slots:Reminders:PerSecond; 1,000 here, batches of SLOTS_REM_BATCH, 100): the same booking load
#      while the day's reminders are queued. The default rate (20/s) spreads the same day over about
#      83 minutes; SLOTS_REM_RATE=1000000 SLOTS_REM_BATCH=1000 is the unthrottled worst case.
#
#   loadtest/reminders.sh             → loadtest/results/reminders/summary.md
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${SLOTS_REM_SECONDS:-15}"
rate="${SLOTS_REM_RATE:-1000}"      # Slots:Reminders:PerSecond for the run (the default in production is 20)
batch="${SLOTS_REM_BATCH:-100}"
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
start_api false
SLOTS_BOOK_OFFSET=0 wrk -t 2 -c 8 -d 3s -s loadtest/reminders/book.lua "$base/api/reservations" >/dev/null   # warm-up
SLOTS_BOOK_OFFSET=100000 wrk -t 2 -c 8 -d "${seconds}s" --latency -s loadtest/reminders/book.lua "$base/api/reservations" >"$work/baseline.txt"
stop_api

start_api true
run_start=$(date +%s.%N)
SLOTS_BOOK_OFFSET=200000 wrk -t 2 -c 8 -d "${seconds}s" --latency -s loadtest/reminders/book.lua "$base/api/reservations" >"$work/during.txt" &
wrk_pid=$!
reminded=0
# Until the whole day is queued or the booking load ends, whichever comes first.
while kill -0 "$wrk_pid" 2>/dev/null; do
  reminded=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1], timeout=30).execute("SELECT COUNT(*) FROM reminders").fetchone()[0])' "$work/slots.db")
  [ "$reminded" -ge "$seeded" ] && break
  sleep 0.2
done
run_end=$(date +%s.%N)
wait "$wrk_pid"
queued=$(python3 -c 'import sqlite3,sys; print(*sqlite3.connect(sys.argv[1], timeout=30).execute("SELECT COUNT(*), COUNT(DISTINCT code) FROM outbox WHERE kind = 5").fetchone())' "$work/slots.db")
elapsed=$(python3 -c "print(f'{$run_end - $run_start:.1f}')")
per_second=$(python3 -c "print(f'{$reminded / ($run_end - $run_start):,.0f}')")

{
  echo "# A reminder run for a day of $seeded bookings ($(date -u +%FT%TZ), $(nproc) cores, SQLite, 1 instance, Release)"
  echo
  echo "Command: \`loadtest/reminders.sh\` (SLOTS_REM_SECONDS=$seconds SLOTS_REM_RATE=$rate SLOTS_REM_BATCH=$batch): Slots:Reminders:PerSecond $rate, batches of $batch."
  echo
  echo "Reminders queued: $reminded of $seeded in $elapsed s from the start of the instance's scheduler ($per_second/s); SMS rows (rows, distinct codes): $queued."
  echo
  echo "## Bookings at another place, 8 connections, wrk (loadtest/reminders/book.lua)"
  echo
  echo "Baseline, no reminders:"
  echo '```'
  sed -n '/Latency Distribution/,/Requests\/sec/p' "$work/baseline.txt"; grep -E "^bookings" "$work/baseline.txt" || true
  echo '```'
  echo "During the reminder run:"
  echo '```'
  sed -n '/Latency Distribution/,/Requests\/sec/p' "$work/during.txt"; grep -E "^bookings" "$work/during.txt" || true
  echo '```'
} >"$results/summary.md"
cat "$results/summary.md"
