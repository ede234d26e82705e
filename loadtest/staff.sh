#!/usr/bin/env bash
# The site's day under load (issue #28's targets): a place with 1,200 bookings today, then
#   - the roster of that day (a page of 100 of the 1,200, with the day's counts), read by 8 clients
#     at once for SLOTS_STAFF_SECONDS with `hey`;
#   - check-in at the door: each of the 1,200 codes checked in once, 8 at a time, with `wrk` and a
#     Lua script that hands every request the next code (loadtest/staff/check_in.lua);
#   - a site's block cancel of the next day's 1,200 bookings in one request: how long it takes, and
#     that it queued one SMS per booking.
# SQLite, one API instance (Release build), its own port and data folder, stopped at the end; the
# staff token is a standard HS256 JWT for a signing key given to the API in its configuration.
#
#   loadtest/staff.sh                 → loadtest/results/staff/summary.md
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${SLOTS_STAFF_SECONDS:-10}"
artifacts="${SLOTS_BENCH_ARTIFACTS:-$PWD/artifacts}"
results=loadtest/results/staff
mkdir -p "$results"
work="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null || echo 5391)"
base="http://127.0.0.1:$port"
admin_key="staff-bench-admin-key-0123456789"
signing_key="$(head -c 32 /dev/urandom | base64 | tr -d '\n')"
api_pid=""
cleanup() { [ -n "$api_pid" ] && kill "$api_pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

command -v wrk >/dev/null && command -v hey >/dev/null || { echo "needs wrk and hey (apt-get install wrk hey)" >&2; exit 2; }
dotnet build api/Slots.Api -c Release -warnaserror --nologo -v quiet "-p:ArtifactsPath=$artifacts"

ASPNETCORE_ENVIRONMENT=Production \
ConnectionStrings__Slots="Data Source=$work/slots.db" \
Slots__Persons__HmacSecret="staff-bench-secret-of-enough-length" \
Slots__WaitingRoom__SigningKey="staff-bench-waiting-room-key-0123456789abcdef" \
Slots__Admin__Keys__bench__Key="$admin_key" Slots__Admin__Keys__bench__Role=admin \
Slots__RateLimits__WritesPerWindow=10000000 Slots__RateLimits__ReadsPerWindow=10000000 \
Slots__DemoData__WhenEmpty=false Slots__Frontend__Root="$work" \
Authentication__Schemes__Bearer__ValidIssuer=slots-bench \
Authentication__Schemes__Bearer__ValidAudiences__0=slots-api \
Authentication__Schemes__Bearer__SigningKeys__0__Issuer=slots-bench \
Authentication__Schemes__Bearer__SigningKeys__0__Value="$signing_key" \
  dotnet "$artifacts/bin/Slots.Api/release/Slots.Api.dll" --urls "$base" >"$work/api.log" 2>&1 &
api_pid=$!
for _ in $(seq 1 120); do curl -fs "$base/health/ready" >/dev/null 2>&1 && break; sleep 0.5; done

# A place whose clock reads about noon now, and 5 slots of 240 seats starting 10 to 50 minutes from
# now: every one of the 1,200 bookings is inside the door's check-in window.
utc_hour=$(date -u +%-H); offset=$((12 - utc_hour))
if [ "$offset" -eq 0 ]; then zone="Etc/GMT"; elif [ "$offset" -gt 0 ]; then zone="Etc/GMT-$offset"; else zone="Etc/GMT+$((-offset))"; fi
local_now=$(date -u -d "+$offset hours" +%s)
first=$(( (local_now / 600 + 1) * 600 + 600 ))
day=$(date -u -d "@$first" +%F)
from=$(date -u -d "@$first" +%H:%M); last=$(date -u -d "@$((first + 4 * 600))" +%H:%M)
place=$(curl -fs -H "X-Api-Key: $admin_key" -H 'Content-Type: application/json' "$base/api/admin/places" \
  -d "{\"name\":\"Očkovacie centrum Hlavná\",\"address\":\"Hlavná 1, 040 01 Košice\",\"region\":\"Košický kraj\",\"timeZone\":\"$zone\"}" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
curl -fs -H "X-Api-Key: $admin_key" -H 'Content-Type: application/json' "$base/api/admin/slots/generate" \
  -d "{\"placeIds\":[$place],\"from\":\"$day\",\"to\":\"$day\",\"template\":{\"firstStart\":\"$from\",\"lastStart\":\"$last\",\"intervalMinutes\":10,\"lengthMinutes\":10},\"capacity\":240}" >/dev/null

# 1,200 people book, 8 at a time; their codes feed the check-ins.
book() {
  local i=$1 minute=$(( $1 % 5 * 10 ))
  local time; time=$(date -u -d "@$((first + minute * 60))" +%H:%M)
  curl -fs -H 'Content-Type: application/json' -H "Idempotency-Key: staff-bench-$i" "$base/api/reservations" \
    -d "{\"placeId\":$place,\"day\":\"$day\",\"time\":\"$time\",\"name\":\"Osoba $i\",\"phone\":\"+42190$(printf '%07d' "$i")\",\"nationalId\":\"$(printf 'SB%08d' "$i")\"}" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["code"])'
}
export -f book; export base place day first
seq 1 1200 | xargs -P 8 -I{} bash -c 'book {}' >"$work/codes.txt"
booked=$(wc -l <"$work/codes.txt")

# An admin token: HS256 over the key the API was given (what dotnet user-jwts makes in Development).
b64url() { base64 | tr -d '=\n' | tr '/+' '_-'; }
header=$(printf '{"alg":"HS256","typ":"JWT"}' | b64url)
now=$(date +%s)
payload=$(printf '{"sub":"bench","role":["admin"],"places":[],"iss":"slots-bench","aud":"slots-api","iat":%d,"nbf":%d,"exp":%d}' "$now" "$now" $((now + 3600)) | b64url)
signature=$(printf '%s.%s' "$header" "$payload" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$(echo "$signing_key" | base64 -d | xxd -p -c 256)" -binary | b64url)
token="$header.$payload.$signature"

roster="$base/api/staff/places/$place/roster?day=$day&pageSize=100"
curl -fs -H "Authorization: Bearer $token" "$roster" >/dev/null
hey -z 3s -c 8 -H "Authorization: Bearer $token" "$roster" >/dev/null   # warm-up
hey -z "${seconds}s" -c 8 -H "Authorization: Bearer $token" "$roster" >"$work/roster.txt"

SLOTS_STAFF_CODES="$work/codes.txt" SLOTS_STAFF_TOKEN="$token" \
  wrk -t 2 -c 8 -d 30s --latency -s loadtest/staff/check_in.lua "$base/api/staff/places/$place/check-ins" >"$work/check_in.txt"
counts=$(curl -fs -H "Authorization: Bearer $token" "$roster" | python3 -c 'import json,sys; print(json.load(sys.stdin)["counts"])')

# The site cancels the next day's 1,200 bookings (other people: one active booking each) as one block.
day2=$(date -u -d "@$((first + 86400))" +%F)
curl -fs -H "X-Api-Key: $admin_key" -H 'Content-Type: application/json' "$base/api/admin/slots/generate" \
  -d "{\"placeIds\":[$place],\"from\":\"$day2\",\"to\":\"$day2\",\"template\":{\"firstStart\":\"$from\",\"lastStart\":\"$last\",\"intervalMinutes\":10,\"lengthMinutes\":10},\"capacity\":240}" >/dev/null
export day2
book2() {
  local i=$1 minute=$(( $1 % 5 * 10 ))
  local time; time=$(date -u -d "@$((first + minute * 60))" +%H:%M)
  curl -fs -o /dev/null -w '%{http_code}\n' -H 'Content-Type: application/json' -H "Idempotency-Key: staff-bench-block-$i" "$base/api/reservations" \
    -d "{\"placeId\":$place,\"day\":\"$day2\",\"time\":\"$time\",\"name\":\"Osoba $i\",\"phone\":\"+42191$(printf '%07d' "$i")\",\"nationalId\":\"$(printf 'SC%08d' "$i")\"}"
}
export -f book2
booked2=$(seq 1 1200 | xargs -P 8 -I{} bash -c 'book2 {}' | grep -c '^201$' || true)
block_start=$(date +%s%N)
curl -fs -H "Authorization: Bearer $token" -H 'Content-Type: application/json' "$base/api/staff/places/$place/block-cancels" \
  -d "{\"day\":\"$day2\",\"reason\":\"Vypadok dodavky vakcin\"}" >"$work/block.json"
block_ms=$(( ($(date +%s%N) - block_start) / 1000000 ))
block=$(python3 -c 'import json,sys; b=json.load(open(sys.argv[1])); print("cancelled %d, kept %d, finished %s" % (b["cancelled"], b["kept"], b["finished"]))' "$work/block.json")
queued=$(python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(*c.execute("SELECT count(*), count(DISTINCT code) FROM outbox WHERE kind = 4").fetchone())' "$work/slots.db")

{
  echo "# The site's day under load ($(date -u +%FT%TZ), $(nproc) cores, SQLite, 1 instance, Release)"
  echo
  echo "Command: \`loadtest/staff.sh\` (SLOTS_STAFF_SECONDS=$seconds). Bookings made: $booked; after the check-ins: $counts."
  echo
  echo "## Roster of the day (a page of 100 of 1,200, with counts), 8 clients, ${seconds} s, hey"
  echo '```'
  grep -E "Requests/sec|Average|Fastest|Slowest|10%|50%|90%|95%|99%|\[2|\[4|\[5" "$work/roster.txt"
  echo '```'
  echo
  echo "## Check-in at the door, each code once, 8 connections, wrk (loadtest/staff/check_in.lua)"
  echo '```'
  sed -n '/Latency Distribution/,/Requests\/sec/p' "$work/check_in.txt"
  grep -E "^check-ins" "$work/check_in.txt" || true
  echo '```'
  echo
  echo "## A site cancels a block: the next day's $booked2 bookings, one request"
  echo
  echo "Answered in $block_ms ms: $block. SMS queued for the site's cancel (rows, distinct codes): $queued."
} >"$results/summary.md"
cat "$results/summary.md"
