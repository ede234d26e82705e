#!/bin/bash
# One full SMART Scheduling Links publication at the benchmark's size (1,000 places × 30 days × 34 times × 5 seats,
# seeded by Slots.LoadTest seed), SQLite, the Debug build in artifacts/: the publication's wall and CPU time and
# the API's peak memory (README, "Vaccine finders"). Build first: dotnet build Slots.slnx.
set -eu
cd "$(dirname "$0")/.."
work=$(mktemp -d); trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
db="Data Source=$work/slots.db"
start() {
  env ASPNETCORE_URLS="http://127.0.0.1:5391" ASPNETCORE_ENVIRONMENT=Production Slots__Storage__Provider=Sqlite ConnectionStrings__Slots="$db" \
    Slots__Persons__HmacSecret="benchmark-only-secret-0123456789" Slots__WaitingRoom__SigningKey="benchmark-only-waiting-room-key-0123456789" \
    Slots__DemoData__WhenEmpty=false Slots__Finders__RefreshSeconds=3600 Slots__Finders__Folder="$work" \
    dotnet artifacts/bin/Slots.Api/debug/Slots.Api.dll >"$work/api.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 240); do curl -fs http://127.0.0.1:5391/health/ready >/dev/null 2>&1 && return; sleep 0.5; done
  cat "$work/api.log"; exit 1
}
start   # creates the schema
dotnet artifacts/bin/Slots.LoadTest/debug/Slots.LoadTest.dll seed --provider sqlite --connection "$db" --places 1000
kill $pid; wait $pid || true
start   # a fresh process: its memory is the publication's
cpu() { awk '{print ($14+$15)/100}' /proc/$pid/stat; }
c0=$(cpu)
curl -fs -o /dev/null -w "manifest %{http_code} after %{time_total} s (the first poll waits for the first publication)\n" 'http://127.0.0.1:5391/fhir/$bulk-publish'
echo "API CPU for the publication: $(echo "$(cpu) - $c0" | bc) s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
grep "Published availability" "$work/api.log"
du -sh "$work"/slots-finders-*
echo "API memory: $(grep -E 'VmHWM|VmRSS' /proc/$pid/status | tr -s ' \n' ' ')"
