#!/bin/bash
# What vaccine finders cost (issue 41): the first SMART Scheduling Links publication at the benchmark's size (1,000 places
# × 30 days × 34 times × 5 seats, seeded by Slots.LoadTest seed), then the same booking crowd twice for 70 s (the real
# path's shape: 16 users, 80 % on 50 places' first 7 days), once with a finder polling the manifest every second and
# reading each new publication's changes (_since the one before; it read the first one whole before), once without; the
# API's CPU per decided answer in each.
#
#   loadtest/finders.sh [--backend postgres|sqlite]      (PostgreSQL: a server of its own on a free port)
#
# SLOTS_FINDERS_PERF=FILE also records the API with perf (cpu-clock, call graphs, the JIT's perf map) over the window with
# the finder and prints the publication's frames' share of the API's samples: the A/B difference is within the noise of a
# two-core VM, the frames are not.
set -euo pipefail
cd "$(dirname "$0")/.."
backend=postgres
[ "${1:-}" != --backend ] || backend=$2
seconds=${SLOTS_FINDERS_SECONDS:-70}
work=$(mktemp -d /tmp/slots-finders-XXXXXX); chmod 755 "$work"
pid="" && pg_bin="" && as_pg=()
stop() {
  [ -z "$pid" ] || kill "$pid" 2>/dev/null || true
  [ -z "$pg_bin" ] || "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg" stop -m fast >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap stop EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
dotnet build api/Slots.Api -c Release --nologo -v quiet
dotnet build loadtest/Slots.LoadTest -c Release --nologo -v quiet
lt=artifacts/bin/Slots.LoadTest/release/Slots.LoadTest
if [ "$backend" = postgres ]; then
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  if [ "$(id -u)" = 0 ]; then as_pg=(runuser -u postgres --); chown postgres "$work"; fi
  pg_port=$(port)
  "${as_pg[@]}" "$pg_bin/initdb" -D "$work/pg" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -w -l "$work/pg.log" start -o \
    "-c listen_addresses=127.0.0.1 -p $pg_port -c unix_socket_directories=$work -c max_connections=200 -c shared_buffers=512MB" >/dev/null
  "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -qc "CREATE DATABASE slots"
  db="Host=127.0.0.1;Port=$pg_port;Database=slots;Username=postgres;Maximum Pool Size=20" && provider=Postgres
else
  db="Data Source=$work/slots.db" && provider=Sqlite
fi
api_port=$(port) && url="http://127.0.0.1:$api_port"
start() {
  env ASPNETCORE_URLS="$url" ASPNETCORE_ENVIRONMENT=Production Slots__Storage__Provider=$provider ConnectionStrings__Slots="$db" \
    Slots__Persons__HmacSecret="benchmark-only-secret-0123456789" Slots__WaitingRoom__SigningKey="benchmark-only-waiting-room-key-0123456789" \
    Slots__Invitations__HmacSecret="benchmark-only-invitation-key-0123456789" Slots__DemoData__WhenEmpty=false \
    Slots__RateLimits__WritesPerWindow=100000000 Slots__RateLimits__ReadsPerWindow=100000000 Slots__Finders__Folder="$work" \
    DOTNET_PerfMapEnabled=1 DOTNET_EnableWriteXorExecute=0 dotnet artifacts/bin/Slots.Api/release/Slots.Api.dll >>"$work/api.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 240); do curl -fs "$url/health/ready" >/dev/null 2>&1 && return; sleep 0.5; done
  cat "$work/api.log"; exit 1
}
start   # creates the schema
"$lt" seed --provider "$backend" --connection "$db" --places 1000 | tail -1
kill "$pid"; wait "$pid" || true
start   # a fresh process: its memory is the publication's
cpu() { awk '{print ($14+$15)/100}' "/proc/$pid/stat"; }
c0=$(cpu)
curl -fs -o /dev/null -w "first publication: manifest %{http_code} after %{time_total} s\n" "$url/fhir/\$bulk-publish"
echo "API CPU for it: $(echo "$(cpu) - $c0" | bc) s; memory $(grep -E 'VmHWM' /proc/$pid/status | tr -s ' \t' ' ')"
# The finder reads the whole first publication once; afterwards it asks only for what changed since the one it has.
first=$(curl -fs "$url/fhir/\$bulk-publish")
c0=$(cpu) && t0=$(date +%s.%N)
for f in $(echo "$first" | jq -r '.output[].url'); do curl -fs -o /dev/null "$f"; done
echo "reading it whole: $(echo "$(date +%s.%N) - $t0" | bc | cut -c1-5) s, API CPU $(echo "$(cpu) - $c0" | bc) s"
first_since=$(echo "$first" | jq -r '.transactionTime')
# crowd LABEL POLL: the booking crowd for $seconds s from the seeded supply, a finder polling meanwhile when POLL=1.
crowd() {
  "$lt" reset --provider "$backend" --connection "$db" >/dev/null; sleep 2
  "$lt" run --target "$url" --scenario real --endpoint reserve --flow reserve --mode closed --max-in-flight 16 \
    --duration "$seconds" --prime-seconds 0 --hot-places 50 --hot-days 7 --seed 7 --json "$work/$1.json" >"$work/$1.log" 2>&1 &
  local load=$! c=$(cpu) since=$first_since perf_pid=""
  if [ "$2" = 1 ] && [ -n "${SLOTS_FINDERS_PERF:-}" ]; then
    perf record -e cpu-clock -F 499 -g -p "$pid" -o "$SLOTS_FINDERS_PERF" -- sleep "$seconds" >/dev/null 2>&1 & perf_pid=$!
  fi
  if [ "$2" = 1 ]; then
    while kill -0 "$load" 2>/dev/null; do
      local manifest; manifest=$(curl -fs "$url/fhir/\$bulk-publish?_since=$since")
      for f in $(echo "$manifest" | jq -r '.output[].url'); do curl -fs -o /dev/null "$f"; done
      since=$(echo "$manifest" | jq -r '.transactionTime'); sleep 1
    done
  fi
  wait "$load"
  [ -z "$perf_pid" ] || wait "$perf_pid" || true
  local used; used=$(echo "$(cpu) - $c" | bc)
  local decided; decided=$(grep -E '^ *reserve (201|409) ' "$work/$1.log" | awk '{s+=$3} END {print s}')
  echo "$1: API CPU $used s for $decided decided answers = $(echo "scale=1; $used * 1000000 / $decided" | bc) µs each"
}
crowd with-finder 1
crowd without-finder 0
grep "Published availability" "$work/api.log" | sed 's/.*Published/Published/'
if [ -n "${SLOTS_FINDERS_PERF:-}" ]; then
  echo "the publication's frames in the API's samples with the finder (perf report --children; they nest, so not a sum):"
  perf report -i "$SLOTS_FINDERS_PERF" --children --sort symbol --stdio -g none 2>/dev/null \
    | grep -E 'Publisher\+<PublishAsync>d__[0-9]+::MoveNext\(\)\[Opt|Publisher::WriteRegion|EveryPlaceAsync>d__[0-9]+::MoveNext\(\)\[Opt' \
    | awk '{printf "  %s %s\n", $1, $0}' | cut -c1-12,40-200 | sort -u
fi
