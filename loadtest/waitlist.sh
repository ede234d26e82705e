#!/usr/bin/env bash
# The waiting list under load (issue #29's targets): a sold-out place (100 slots of one seat, all
# booked), 1,000 people on its list, then 100 cancellations at random times over SLOTS_WL_SECONDS.
# Each offer SMS (read from the development file sink) is claimed by its waiter after a short pause,
# except one in five, whose hold runs out (Hold shortened to 10 s) and moves on to the next in line.
# Measured: cancellation to the first waiter's SMS offer (p50/p99), claim answers (p50/p99). Audited
# from the database at the end: each freed seat booked through the list or still held for the next
# in line, offers in list order, no seat held twice or both held and booked.
# SQLite, one API instance (Release build), its own port and data folder, stopped at the end.
#
#   loadtest/waitlist.sh              → loadtest/results/waitlist/summary.md
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${SLOTS_WL_SECONDS:-30}"
artifacts="${SLOTS_BENCH_ARTIFACTS:-$PWD/artifacts}"
results=loadtest/results/waitlist
mkdir -p "$results"
work="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
admin_key="waitlist-bench-admin-key-0123456789"
api_pid=""
cleanup() { [ -n "$api_pid" ] && kill "$api_pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

dotnet build api/Slots.Api -c Release -warnaserror --nologo -v quiet "-p:ArtifactsPath=$artifacts"

ASPNETCORE_ENVIRONMENT=Production \
ConnectionStrings__Slots="Data Source=$work/slots.db" \
Slots__Persons__HmacSecret="waitlist-bench-secret-of-enough-length" \
Slots__WaitingRoom__SigningKey="waitlist-bench-waiting-room-key-0123456789abcdef" \
Slots__Admin__Keys__bench__Key="$admin_key" Slots__Admin__Keys__bench__Role=admin \
Slots__RateLimits__WritesPerWindow=10000000 Slots__RateLimits__ReadsPerWindow=10000000 \
Slots__DemoData__WhenEmpty=false Slots__Frontend__Root="$work" \
Slots__Sms__File__Path="$work/sms.jsonl" Slots__Sms__RelayInterval=00:00:00.200 Slots__Sms__MessagesPerSecond=1000 \
Slots__WaitingList__Every=00:00:00.200 Slots__WaitingList__Hold=00:00:10 Slots__WaitingList__BackfillWithin=00:00:00 \
  dotnet "$artifacts/bin/Slots.Api/release/Slots.Api.dll" --urls "$base" >"$work/api.log" 2>&1 &
api_pid=$!
for _ in $(seq 1 120); do curl -fs "$base/health/ready" >/dev/null 2>&1 && break; sleep 0.5; done

python3 loadtest/waitlist/drive.py --base "$base" --admin-key "$admin_key" --db "$work/slots.db" --sms "$work/sms.jsonl" \
  --seconds "$seconds" --out "$results/summary.md"
cat "$results/summary.md"
