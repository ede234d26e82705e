#!/usr/bin/env bash
# The site's day's roster, before and after a change, alternated on one seeded PostgreSQL (docs/benchmarks.md,
# "The roster from the day's seats"): a PostgreSQL of its own with pg_stat_statements (track = all), 1,000 places ×
# 30 days seeded (5.1 M hot seats), then ROUNDS rounds of one Release API of each build in turn, each read by
# `Slots.LoadTest site` (8 staff, 30 s warm-up, 10 s counted) with the statements of its run printed after it.
#
#   bash loadtest/roster/ab.sh BEFORE_ARTIFACTS AFTER_ARTIFACTS [ROUNDS (2)]
#
# Each ARTIFACTS is a folder with bin/Slots.Api/release/Slots.Api.dll (a worktree's artifacts/ for the build before).
# The API runs without its scheduler jobs, as in ./slots bench's site phase; the change records are emptied before each
# run, as the flush would. Ports 55432 (PostgreSQL) and 55080 (the API), loopback only; everything is stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
before=${1:?BEFORE_ARTIFACTS}; after=${2:?AFTER_ARTIFACTS}; rounds=${3:-2}
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
work=$(mktemp -d /tmp/slots-roster-XXXXXX); chmod 755 "$work"
psql() { "$bin/psql" -h 127.0.0.1 -p 55432 -U postgres -d slots -Atqc "$1"; }
api_pid=""
stop() {
  [ -n "$api_pid" ] && kill "$api_pid" 2>/dev/null && wait "$api_pid" 2>/dev/null || true
  runuser -u postgres -- "$bin/pg_ctl" -D "$work/pg" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap stop EXIT

mkdir "$work/pg"; chown postgres "$work/pg"
runuser -u postgres -- "$bin/initdb" -D "$work/pg" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
runuser -u postgres -- "$bin/pg_ctl" -D "$work/pg" -l "$work/pg/log" -w -o "-c listen_addresses=127.0.0.1 -p 55432 \
  -c unix_socket_directories=$work/pg -c max_connections=400 -c shared_buffers=512MB -c fsync=off -c synchronous_commit=off \
  -c full_page_writes=off -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all" start >/dev/null
"$bin/psql" -h 127.0.0.1 -p 55432 -U postgres -Atqc "CREATE DATABASE slots"
psql "CREATE EXTENSION pg_stat_statements"

db="Host=127.0.0.1;Port=55432;Database=slots;Username=postgres"
staff_key=$(head -c 32 /dev/urandom | base64)
admin_key=benchmark-only-admin-key-0123456789
start_api() {
  ASPNETCORE_ENVIRONMENT=Production ASPNETCORE_URLS=http://127.0.0.1:55080 Slots__Storage__Provider=Postgres \
  ConnectionStrings__Slots="$db;Maximum Pool Size=40;Timeout=5" \
  Slots__Persons__HmacSecret=benchmark-only-secret-0123456789 Slots__Invitations__HmacSecret=benchmark-only-invitation-key-0123456789 \
  Slots__WaitingRoom__SigningKey=benchmark-only-waiting-room-key-0123456789 Slots__Admin__Keys__bench__Key=$admin_key \
  Slots__Admin__Keys__bench__Role=admin Slots__DemoData__WhenEmpty=false Logging__LogLevel__Default=Warning \
  Authentication__Schemes__Bearer__ValidIssuer=slots-bench Authentication__Schemes__Bearer__ValidAudiences__0=slots-api \
  Authentication__Schemes__Bearer__SigningKeys__0__Issuer=slots-bench Authentication__Schemes__Bearer__SigningKeys__0__Value="$staff_key" \
  Slots__RateLimits__WritesPerWindow=100000000 Slots__RateLimits__ReadsPerWindow=1000000000 \
  dotnet "$1/bin/Slots.Api/release/Slots.Api.dll" --contentRoot "$PWD/api/Slots.Api" > "$work/api.log" 2>&1 &
  api_pid=$!
  for _ in $(seq 60); do
    curl -sf -o /dev/null http://127.0.0.1:55080/health/ready && return
    kill -0 "$api_pid" 2>/dev/null || break
    sleep 1
  done
  echo "the API did not start:"; tail -20 "$work/api.log"; exit 1
}
stop_api() { kill "$api_pid"; wait "$api_pid" 2>/dev/null || true; api_pid=""; }

dotnet build loadtest/Slots.LoadTest -c Release -warnaserror --nologo -v quiet
generator="dotnet artifacts/bin/Slots.LoadTest/release/Slots.LoadTest.dll"
start_api "$after" # creates the schema
$generator seed --provider postgres --connection "$db" --places 1000 | tail -1
stop_api

letters=abcdefghijklmnopqrstuvwxyz
for round in $(seq "$rounds"); do
  for build in before after; do
    if [ "$build" = before ]; then start_api "$before"; else start_api "$after"; fi
    psql "TRUNCATE changes"; psql "SELECT pg_stat_statements_reset()" >/dev/null
    echo "== $build, round $round"
    $generator site --target http://127.0.0.1:55080 --admin-key $admin_key --staff-signing-key "$staff_key" \
      --seconds 10 --warmup-seconds 30 --run-id "r${letters:round-1:1}${build:0:1}" --watch-pids "$api_pid"
    "$bin/psql" -h 127.0.0.1 -p 55432 -U postgres -d slots -Atc "SELECT calls, round(total_exec_time::numeric), \
      round(mean_exec_time::numeric, 3), rows, left(regexp_replace(query, '\s+', ' ', 'g'), 160) FROM pg_stat_statements \
      ORDER BY total_exec_time DESC LIMIT 8"
    stop_api
  done
done
