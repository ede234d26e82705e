#!/usr/bin/env bash
# The benchmark in one command: build (Release), start what it needs, seed the scale data, run
# no-op, baseline and real path under the same load one after the other (each booking scenario on
# the seeded supply again), then the stampedes (plain,
# sold out, and through a waiting room), the availability probes, a vaccine finder, the site's day and the waiting
# list (Slots.LoadTest site, waitlist), write loadtest/results/<backend>/*.json and summary.md, stop everything.
#
#   loadtest/run.sh                      PostgreSQL, 2 API instances, 5.1 M hot seats
#   loadtest/run.sh --backend sqlite     SQLite, 1 API instance (the embedded default)
#   loadtest/run.sh --quick              small data and short runs: a smoke check of the tooling
#   loadtest/run.sh --stack              the whole stack through ./slots stack (HAProxy in front), on
#                                        fresh ports and a fresh state folder, stopped at the end
#   loadtest/run.sh --stack --ha         the same on the high-availability stack (./slots stack up --ha: Patroni with a
#                                        synchronous standby, 3 RabbitMQ nodes, 2 HAProxy peers), the crowd through both
#                                        HAProxy nodes; results in loadtest/results/stack-ha/
#   loadtest/run.sh --sweep              also no-op, baseline and real path at 16, 64 and 256 users (16 and 64
#                                        with --quick), each on the seeded supply: best against best
#   loadtest/run.sh --split-cpus         the generator, wrk and pgbench's clients on CPUs of their own (taskset), the
#                                        stack (PostgreSQL, the APIs, HAProxy, RabbitMQ) on the rest: on 2 cores the stack on
#                                        CPU 0, the generator on CPU 1; so its latencies are the server's, not its own queue's
#
# Against a stack that is already up (./slots stack up), start nothing and point it there:
#   SLOTS_BENCH_TARGET=https://127.0.0.1:8443 SLOTS_TLS_CA=.stack/tls/ca.crt SLOTS_BENCH_DB='Host=…' SLOTS_BENCH_PROVIDER=postgres \
#   SLOTS_BENCH_API_PIDS=123,456 [SLOTS_BENCH_DB_PID=789] loadtest/run.sh
# (SLOTS_TLS_CA: the CA the generator trusts for HTTPS, the stack's local one; unset for a real certificate.)
# (that stack must run its APIs with Slots__Benchmark__Baseline=true for the baseline and no-op, and know the staff
# key SLOTS_BENCH_ADMIN_KEY, default benchmark-only-admin-key-0123456789, as an admin key for the waiting room).
#
# Knobs (environment): SLOTS_BENCH_DURATION (s, default 20), SLOTS_BENCH_CONCURRENCY (64),
# SLOTS_BENCH_WARMUP (s, default 5, 3 with --quick: the unmeasured warm-up before each throughput run; 0: none),
# SLOTS_BENCH_PLACES (1000 → 1000 × 30 days × 34 times × 5 seats = 5.1 M seats), SLOTS_BENCH_STEP_FACTOR (20),
# SLOTS_BENCH_INSTANCES (2 on PostgreSQL), SLOTS_BENCH_PG_DURABLE (1: fsync and synchronous_commit on),
# SLOTS_BENCH_PROXY_LOG (an external stack's HAProxy log, for latency at the server),
# SLOTS_BENCH_SWEEP (users in flight of the sweep, e.g. "16 64 256"; set, it runs the sweep), SLOTS_BENCH_SWEEP_DURATION
# (s, default 10, 3 with --quick), SLOTS_BENCH_CEILING_SECONDS (the pgbench ceiling on PostgreSQL, default 10, 1 with --quick),
# SLOTS_BENCH_ARTIFACTS (the build's artifacts folder, default ./artifacts: a separate one keeps a benchmark's build
# apart from another build of the same tree).
set -euo pipefail
cd "$(dirname "$0")/.."

backend=postgres
quick=0
use_stack=0
ha=0
sweep_on=0
split=0
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) backend="$2"; shift 2 ;;
    --quick) quick=1; shift ;;
    --stack) use_stack=1; shift ;;
    --ha) use_stack=1; ha=1; shift ;;
    --sweep) sweep_on=1; shift ;;
    --split-cpus) split=1; shift ;;
    *) echo "usage: loadtest/run.sh [--backend postgres|sqlite] [--quick] [--stack [--ha]] [--sweep] [--split-cpus]" >&2; exit 2 ;;
  esac
done
case "$backend" in postgres|sqlite) ;; *) echo "--backend must be postgres or sqlite" >&2; exit 2 ;; esac

duration=${SLOTS_BENCH_DURATION:-20}
concurrency=${SLOTS_BENCH_CONCURRENCY:-64}
places=${SLOTS_BENCH_PLACES:-1000}
step_factor=${SLOTS_BENCH_STEP_FACTOR:-20}
admin_key=${SLOTS_BENCH_ADMIN_KEY:-benchmark-only-admin-key-0123456789}
# The staff sign-in's signing key (base64, 32 bytes): the APIs started here check staff tokens against it, and the site's
# day signs its staff in with it. An external stack's: set it to that stack's, or the site's day uses the admin key.
staff_key=${SLOTS_BENCH_STAFF_KEY:-$(head -c 32 /dev/urandom | base64 | tr -d '\n')}
instances=${SLOTS_BENCH_INSTANCES:-$([ "$backend" = postgres ] && echo 2 || echo 1)}
warmup=${SLOTS_BENCH_WARMUP:-5}
sweep=${SLOTS_BENCH_SWEEP:-}
if [ -z "$sweep" ] && [ "$sweep_on" = 1 ]; then sweep="16 64 256"; fi
sweep_duration=${SLOTS_BENCH_SWEEP_DURATION:-10}
ceiling_seconds=${SLOTS_BENCH_CEILING_SECONDS:-10}
if [ "$quick" = 1 ]; then
  duration=${SLOTS_BENCH_DURATION:-5}; places=${SLOTS_BENCH_PLACES:-20}; warmup=${SLOTS_BENCH_WARMUP:-3}
  if [ -z "${SLOTS_BENCH_SWEEP:-}" ] && [ "$sweep_on" = 1 ]; then sweep="16 64"; fi
  sweep_duration=${SLOTS_BENCH_SWEEP_DURATION:-3}
  ceiling_seconds=${SLOTS_BENCH_CEILING_SECONDS:-1}   # 20 places: longer would book most of the seats it draws from
fi
# The CPU split: the stack on the lower half of the CPUs, the load's tools on the upper half (at least one each).
stack_pin=() && gen_pin=() && split_text="shared: the generator, wrk and pgbench on the same $(nproc) CPUs as the stack"
if [ "$split" = 1 ]; then
  command -v taskset >/dev/null || { echo "--split-cpus needs taskset (util-linux)" >&2; exit 2; }
  cpus=$(nproc)
  [ "$cpus" -ge 2 ] || { echo "--split-cpus needs at least 2 CPUs" >&2; exit 2; }
  stack_cpus=0 && [ "$cpus" -lt 4 ] || stack_cpus="0-$(( cpus / 2 - 1 ))"
  gen_cpus=$(( cpus / 2 )) && [ "$cpus" -lt 4 ] || gen_cpus="$(( cpus / 2 ))-$(( cpus - 1 ))"
  stack_pin=(taskset -c "$stack_cpus") && gen_pin=(taskset -c "$gen_cpus")
  stack_parts="PostgreSQL, APIs" && [ "$use_stack" = 0 ] || stack_parts="PostgreSQL, APIs, HAProxy, RabbitMQ"
  split_text="split: the stack ($stack_parts) on CPU $stack_cpus, the generator, wrk and pgbench on CPU $gen_cpus (taskset)"
fi
results="loadtest/results/$backend"
rm -rf "$results" && mkdir -p "$results"

echo "== building (Release)"
artifacts=${SLOTS_BENCH_ARTIFACTS:-$PWD/artifacts}
build=(-c Release -warnaserror --nologo -v quiet)
[ -z "${SLOTS_BENCH_ARTIFACTS:-}" ] || build+=("-p:ArtifactsPath=$artifacts")
dotnet build api/Slots.Api "${build[@]}"
dotnet build loadtest/Slots.LoadTest "${build[@]}"
api_dll="$artifacts/bin/Slots.Api/release/Slots.Api.dll"
lt="$artifacts/bin/Slots.LoadTest/release/Slots.LoadTest"

work=$(mktemp -d /tmp/slots-bench-XXXXXX)
api_pids=()
pg_bin=""
pg_data="$work/pg"
as_pg=()

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

stop_all() {
  if [ "$use_stack" = 1 ] && [ -d "$work/stack" ]; then ./slots stack down >>"$work/stack.log" 2>&1 || true; fi
  for pid in "${api_pids[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done
  for pid in "${api_pids[@]:-}"; do [ -n "$pid" ] && wait "$pid" 2>/dev/null || true; done
  if [ -n "$pg_bin" ] && [ -f "$pg_data/postmaster.pid" ]; then
    "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$pg_data" stop -m fast -w -t 30 >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap stop_all EXIT

start_postgres() {
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -x "$pg_bin/initdb" ] || { echo "PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }
  if [ "$(id -u)" = 0 ]; then as_pg=(runuser -u postgres --); chown -R postgres "$work"; chmod 755 "$work"; fi
  pg_port=$(free_port)
  "${as_pg[@]}" "$pg_bin/initdb" -D "$pg_data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  local durable="-c fsync=on -c synchronous_commit=on"
  [ "${SLOTS_BENCH_PG_DURABLE:-1}" = 1 ] || durable="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  "${stack_pin[@]}" "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$pg_data" -w -t 60 -l "$work/pg.log" start -o \
    "-c listen_addresses=127.0.0.1 -p $pg_port -c unix_socket_directories=$work -c max_connections=400 -c shared_buffers=512MB $durable" >/dev/null
  "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -qc "CREATE DATABASE slots" >/dev/null
  db="Host=127.0.0.1;Port=$pg_port;Database=slots;Username=postgres;Maximum Pool Size=40;Timeout=5"
}

# start_api N WRITES_PER_WINDOW [NAME=VALUE…]: one API process on a free port, configured like the stack (environment
# variables), with the staff key the waiting-room step uses and any further settings given. Unlimited writes (the
# throughput runs) set the adaptive concurrency limit out of the way too: those runs measure each path at a fixed
# number of users, and a 429 there would only put a user to sleep; the stampedes run with the shipped limit.
start_api() {
  local port; port=$(free_port)
  local limit=()
  [ "$2" != 100000000 ] || limit=(Slots__ConcurrencyLimit__MinLimit=100000 Slots__ConcurrencyLimit__InitialLimit=100000 Slots__ConcurrencyLimit__MaxLimit=100000)
  "${stack_pin[@]}" env ASPNETCORE_URLS="http://127.0.0.1:$port" ASPNETCORE_ENVIRONMENT=Production \
  Slots__Storage__Provider="$([ "$backend" = postgres ] && echo Postgres || echo Sqlite)" \
  ConnectionStrings__Slots="$db" \
  Slots__Persons__HmacSecret="benchmark-only-secret-0123456789" Slots__Invitations__HmacSecret="benchmark-only-invitation-key-0123456789" \
  Slots__WaitingRoom__SigningKey="benchmark-only-waiting-room-key-0123456789" \
  Slots__Admin__Keys__bench__Key="$admin_key" Slots__Admin__Keys__bench__Role=admin \
  Authentication__Schemes__Bearer__ValidIssuer=slots-bench Authentication__Schemes__Bearer__ValidAudiences__0=slots-api \
  Authentication__Schemes__Bearer__SigningKeys__0__Issuer=slots-bench Authentication__Schemes__Bearer__SigningKeys__0__Value="$staff_key" \
  Slots__Benchmark__Baseline=true \
  Slots__DemoData__WhenEmpty=false \
  Slots__RateLimits__WritesPerWindow="$2" Slots__RateLimits__ReadsPerWindow="$(( $2 * 10 ))" \
  Logging__LogLevel__Default=Warning "${limit[@]}" "${@:3}" \
    dotnet "$api_dll" >"$work/api-$1.log" 2>&1 &
  api_pids+=("$!")
  for _ in $(seq 1 120); do
    curl -fs "http://127.0.0.1:$port/health/ready" >/dev/null 2>&1 && { api_urls+=("http://127.0.0.1:$port"); return; }
    kill -0 "$!" 2>/dev/null || { cat "$work/api-$1.log" >&2; exit 1; }
    sleep 0.5
  done
  echo "API $1 did not become ready" >&2; exit 1
}

# start_apis WRITES_PER_WINDOW [NAME=VALUE…]: the instances; further settings go to the first one only.
start_apis() {
  api_urls=()
  start_api 1 "$@"
  for i in $(seq 2 "$instances"); do start_api "$i" "$1"; done
  target=$(IFS=,; echo "${api_urls[*]}")
  pids=$(IFS=,; echo "${api_pids[*]}")
  watch=(--watch-pids "$pids")
  if [ -f "$pg_data/postmaster.pid" ]; then watch+=(--watch-db-pid "$(head -1 "$pg_data/postmaster.pid")"); fi
}

stop_apis() {
  for pid in "${api_pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  api_pids=()
}

# The stack of ./slots stack on ports and a state folder of its own. Its processes inherit this
# environment: the benchmark endpoints on, no demo data, and the limits given (HAProxy's and the API's).
stack_up() {
  export SLOTS_STACK_DIR="$work/stack" ASPNETCORE_ENVIRONMENT=Production \
    Slots__Benchmark__Baseline=true Slots__DemoData__WhenEmpty=false Logging__LogLevel__Default=Warning \
    Slots__Persons__HmacSecret="benchmark-only-secret-0123456789" Slots__Invitations__HmacSecret="benchmark-only-invitation-key-0123456789" \
    Slots__WaitingRoom__SigningKey="benchmark-only-waiting-room-key-0123456789" \
    Slots__Admin__Keys__bench__Key="$admin_key" Slots__Admin__Keys__bench__Role=admin
  if [ "$1" = unlimited ]; then
    export SLOTS_RATE_WRITES=100000000 SLOTS_RATE_READS=100000000 \
      Slots__RateLimits__WritesPerWindow=100000000 Slots__RateLimits__ReadsPerWindow=100000000 \
      Slots__ConcurrencyLimit__MinLimit=100000 Slots__ConcurrencyLimit__InitialLimit=100000 Slots__ConcurrencyLimit__MaxLimit=100000
  else
    unset SLOTS_RATE_WRITES SLOTS_RATE_READS Slots__RateLimits__WritesPerWindow Slots__RateLimits__ReadsPerWindow \
      Slots__ConcurrencyLimit__MinLimit Slots__ConcurrencyLimit__InitialLimit Slots__ConcurrencyLimit__MaxLimit
  fi
  if [ "$ha" = 1 ]; then
    "${stack_pin[@]}" ./slots stack up --ha >>"$work/stack.log" 2>&1 || { tail -30 "$work/stack.log" >&2; exit 1; }
    # The crowd through both HAProxy nodes; the tools reach the primary through haproxy1's PostgreSQL listener.
    target="https://127.0.0.1:$SLOTS_FRONT_PORT,https://127.0.0.1:$SLOTS_FRONT2_PORT"
    db="Host=127.0.0.1;Port=$SLOTS_PG_PORT;Database=slots;Username=postgres;Timeout=5"
    pids=$(cat "$SLOTS_STACK_DIR"/pids/api*.pid | paste -sd,)
    # CPU by process: the primary's postgres (its standbys' share is in the machine's total), haproxy1.
    watch=(--watch-pids "$pids" --watch-db-pid "$(./slots stack pids primary-postgres)" \
      --watch-proxy-pid "$(cat "$SLOTS_STACK_DIR/pids/haproxy1.pid")")
    proxy_log=(--proxy-log "$SLOTS_STACK_DIR/logs/haproxy1.log") && at_server=("${proxy_log[@]}")
    return
  fi
  "${stack_pin[@]}" ./slots stack up >>"$work/stack.log" 2>&1 || { tail -30 "$work/stack.log" >&2; exit 1; }
  target="https://127.0.0.1:$SLOTS_FRONT_PORT"
  db="Host=127.0.0.1;Port=$SLOTS_PG_PORT;Database=slots;Username=postgres;Timeout=5"
  pids=$(cat "$SLOTS_STACK_DIR"/pids/api*.pid | paste -sd,)
  watch=(--watch-pids "$pids" --watch-db-pid "$(./slots stack status | awk '$1 == "postgres" {print $2}')" \
    --watch-proxy-pid "$(cat "$SLOTS_STACK_DIR/pids/haproxy.pid")")
  proxy_log=(--proxy-log "$SLOTS_STACK_DIR/logs/haproxy.log") && at_server=("${proxy_log[@]}")
}

# Latency at the server: HAProxy's log where there is a proxy, else the API instances' histograms.
proxy_log=() && at_server=(--server-metrics true)
external=0
if [ "$use_stack" = 1 ]; then
  backend=postgres; external=1; instances=${SLOTS_API_COUNT:-2}
  # Through HAProxy over HTTPS, as people book: the generator trusts the stack's local CA (SLOTS_TLS_CA);
  # wrk, the calibration, cannot verify a certificate at all (it has no option to), so it does not.
  export SLOTS_TLS_CA="$work/stack/tls/ca.crt" SLOTS_REDIRECT_PORT="$(free_port)"
  export SLOTS_API_COUNT="$instances" SLOTS_FRONT_PORT="$(free_port)" SLOTS_STATS_PORT="$(free_port)" SLOTS_PG_PORT="$(free_port)" \
    SLOTS_API_FIRST_PORT="$(free_port)" SLOTS_AMQP_PORT="$(free_port)" SLOTS_RABBIT_DIST_PORT="$(free_port)" \
    SLOTS_RABBIT_MGMT_PORT="$(free_port)" SLOTS_EPMD_PORT="$(free_port)" SLOTS_SCHEDULER_PORT="$(free_port)"
  results="loadtest/results/stack$([ "$ha" = 0 ] || echo -ha)" && rm -rf "$results" && mkdir -p "$results"
  if [ "$ha" = 1 ]; then
    # Every port of the high-availability stack's own: free ones, and fixed ranges apart from ./slots stack's and the chaos soak's.
    export SLOTS_STACK_HA=1 SLOTS_FRONT2_PORT="$(free_port)" SLOTS_STATS2_PORT="$(free_port)" SLOTS_PG2_PORT="$(free_port)" \
      SLOTS_REDIRECT2_PORT="$(free_port)" \
      SLOTS_HAPROXY_ADMIN_FIRST_PORT=27090 SLOTS_ETCD_FIRST_PORT=27000 SLOTS_PG_NODE_FIRST_PORT=27041 \
      SLOTS_PATRONI_FIRST_PORT=27051 SLOTS_RABBIT_FIRST_PORT=27100 SLOTS_PEER_FIRST_PORT=27095
  fi
  chmod 755 "$work"   # the stack keeps PostgreSQL's data inside it only where the postgres user can reach
  stack_up unlimited
elif [ -n "${SLOTS_BENCH_TARGET:-}" ]; then
  external=1
  target="$SLOTS_BENCH_TARGET"; db="${SLOTS_BENCH_DB:?SLOTS_BENCH_DB is required with SLOTS_BENCH_TARGET}"
  backend="${SLOTS_BENCH_PROVIDER:-postgres}"; pids="${SLOTS_BENCH_API_PIDS:-}"
  watch=(--watch-pids "$pids")
  if [ -n "${SLOTS_BENCH_DB_PID:-}" ]; then watch+=(--watch-db-pid "$SLOTS_BENCH_DB_PID"); fi
  if [ -n "${SLOTS_BENCH_PROXY_LOG:-}" ]; then proxy_log=(--proxy-log "$SLOTS_BENCH_PROXY_LOG") && at_server=("${proxy_log[@]}"); else at_server=(); fi
else
  if [ "$backend" = postgres ]; then start_postgres; else db="Data Source=$work/slots.db"; fi
  # Throughput runs: the per-client limiter out of the way (the stampede below runs with the shipped limits).
  start_apis 100000000
fi

echo "== seeding"
lt=("${gen_pin[@]}" "$lt")   # every run of the generator on its side of the split (nothing when the CPUs are shared)
"${lt[@]}" seed --provider "$backend" --connection "$db" --places "$places" --disk-days 12 --json "$results/seed.json"

audit=(--audit-provider "$backend" --audit-connection "$db")
# The invitation codes of the invitation scenario below, issued now as a campaign issues them before its opening: a
# batch written moments before the crowd would measure its 100,000 fresh rows settling (their pages' first reads
# setting hint bits, autovacuum analyzing them) rather than what checking and spending a code costs.
curl -fsS ${SLOTS_TLS_CA:+--cacert "$SLOTS_TLS_CA"} -X POST -H "X-Api-Key: $admin_key" -H 'Content-Type: application/json' \
  -d '{"label":"benchmark","size":100000}' "${api_urls[0]:-${target%%,*}}/api/admin/services/default/invitations" > "$work/invitations.csv"
# Every booking scenario starts on the seeded supply: what the one before booked, keyed and queued is
# cleared (Slots.LoadTest reset), then a pause longer than the availability snapshot's age.
fresh() { "${lt[@]}" reset --provider "$backend" --connection "$db"; sleep 1.5; }
# The crowd aims at 50 popular places and their first 7 days (80 %): enough seats that a 20 s run
# measures booking rather than "slot full", with real races for the popular slots.
# throughput SCENARIO USERS SECONDS JSON [ARGS…]: a closed crowd on the scenario's endpoint (reserve-age: the
# reserve endpoint), after a warm-up of the same shape that is not measured (JIT tiers, connections, pools, prepared
# statements); on a booking endpoint the generator then puts the supply back as fresh does, so the measured run
# starts on the seeded supply. ARGS go to the generator as they are.
throughput() {
  local endpoint=$1
  case "$1" in reserve-age|reserve-pair|reserve-invite) endpoint=reserve ;; esac
  if [ "$warmup" = 0 ] && [ "$1" != noop ]; then fresh; fi   # no warm-up: the reset comes first instead
  "${lt[@]}" run --target "$target" --scenario "$1" --endpoint "$endpoint" --flow reserve --mode closed --max-in-flight "$2" \
    --duration "$3" --prime-seconds "$warmup" --hot-places 50 --hot-days 7 --seed 7 \
    "${watch[@]}" "${at_server[@]}" "${audit[@]}" "${@:5}" --json "$4"
}
# who_may_book JSON: the default service's rule of who may book, through the admin API (the seeded places offer only it).
who_may_book() {
  local url=${api_urls[0]:-${target%%,*}}
  curl -fsS ${SLOTS_TLS_CA:+--cacert "$SLOTS_TLS_CA"} -X PUT -H "X-Api-Key: $admin_key" -H 'Content-Type: application/json' \
    -d "$1" "$url/api/admin/services/default/eligibility" >/dev/null
}
# doses INTERVAL: the default service's second dose ({"minDays":…,"maxDays":…}, or null for one appointment), through the
# admin API of every instance: each keeps a copy of the catalogue that its own admin writes refresh at once (others' within
# 30 s). Behind a proxy the instances are not each reachable, so the copies get their 30 s.
doses() {
  local urls url
  IFS=, read -ra urls <<<"$(IFS=,; echo "${api_urls[*]:-$target}")"
  for url in "${urls[@]}"; do
    curl -fsS ${SLOTS_TLS_CA:+--cacert "$SLOTS_TLS_CA"} -X PUT -H "X-Api-Key: $admin_key" -H 'Content-Type: application/json' \
      -d "{\"nameSk\":\"Očkovanie\",\"nameEn\":\"Vaccination\",\"secondDose\":$1,\"active\":true}" "$url/api/admin/services/default" >/dev/null
  done
  if [ "$use_stack" = 1 ] || [ -n "${SLOTS_BENCH_TARGET:-}" ]; then sleep 31; fi
}
# The yardstick for the generator: wrk on the no-op, warmed up, with as many connections as the crowd has users, split
# over the targets (one single-threaded wrk per target, at once). The summary divides the generator's no-op by it.
calibrate() {
  command -v wrk >/dev/null || { echo "   wrk not found (apt-get install wrk): no calibration"; return 0; }
  local urls; IFS=, read -ra urls <<<"$target"
  local per=$(( (concurrency + ${#urls[@]} - 1) / ${#urls[@]} )) phase seconds i pids
  for phase in warm measured; do
    seconds=$([ "$phase" = warm ] && echo "$warmup" || echo "$duration")
    [ "$seconds" != 0 ] || continue
    pids=()
    for i in "${!urls[@]}"; do
      "${gen_pin[@]}" wrk -t1 -c"$per" -d"${seconds}s" -s loadtest/calibration/noop.lua "${urls[$i]}/api/benchmark/noop" >"$work/wrk-$phase-$i.txt" 2>&1 &
      pids+=("$!")
    done
    for i in "${pids[@]}"; do wait "$i"; done   # not a bare wait: the API instances are this shell's children too
  done
  grep -h '^calibration ' "$work"/wrk-measured-*.txt | cut -d' ' -f2- | jq -s --argjson per "$per" --argjson warmup "$warmup" '{
      tool: "wrk", answersPerSecond: (map(.requests / .seconds) | add * 10 | round / 10),
      connections: ($per * length), seconds: (map(.seconds) | max), warmupSeconds: $warmup, targets: length, threads: length,
      p50Ms: (map(.p50Ms) | max), p99Ms: (map(.p99Ms) | max), maxMs: (map(.maxMs) | max),
      non2xx: (map(.non2xx) | add), socketErrors: (map(.socketErrors) | add)}' > "$results/calibration.json"
  echo "   wrk: $(jq '.answersPerSecond' "$results/calibration.json") answers/s, $(jq '.connections' "$results/calibration.json") connections, p99 $(jq '.p99Ms' "$results/calibration.json") ms, non-2xx $(jq '.non2xx' "$results/calibration.json")"
}
echo "== calibration: wrk on the no-op"
calibrate
for scenario in noop baseline reserve; do
  echo "== $scenario"
  throughput "$scenario" "$concurrency" "$duration" "$results/$scenario.json"
done
# The same crowd under an age rule that admits all of it (birth numbers of 1954-1963, the step open since 2020): what
# deciding who may book costs the real path, beside the run above (issue 41: at most 10 % of its booked/s).
echo "== reserve under an age rule"
who_may_book '{"rule":"age","steps":[{"opensAt":"2020-01-01T00:00:00Z","bornOnOrBefore":"1963-12-31"}]}'
throughput reserve-age "$concurrency" "$duration" "$results/reserve-age.json" --birth-years 1954-1963
# The same crowd on an invitation-only service, each person with a code of its own from one issued batch (the CSV the
# admin API answers once): the code read with the seat and spent in its operation (issue 41: at most 10 %).
echo "== reserve with invitation codes"
who_may_book '{"rule":"invitation"}'
throughput reserve-invite "$concurrency" "$duration" "$results/reserve-invite.json" --invitations "$work/invitations.csv" --max-users 100000
who_may_book '{"rule":"everyone"}'
# The same crowd on a two-dose service: each booking takes its first dose where the crowd aims (days 0-6) and its
# second 28-35 days later at the same time, on the last hot days or the seeded disk days (issue 41: pairs/s at least
# half the real path's bookings/s; the audit finds no half pair, no seat twice, no person with two pairs).
echo "== reserve pairs (both doses in one booking)"
doses '{"minDays":28,"maxDays":35}'
throughput reserve-pair "$concurrency" "$duration" "$results/reserve-pair.json"
doses null

# The sweep: the same three paths at several concurrencies, so that each is judged at the load that suits it.
for users in $sweep; do
  for scenario in noop baseline reserve; do
    echo "== sweep: $scenario, $users users"
    throughput "$scenario" "$users" "$sweep_duration" "$results/sweep/$scenario-$users.json"
  done
done

# The ceiling: the same bookings as bare set-based SQL on the same server and seeded data (PostgreSQL only), with the
# API instances idle; it leaves the seeded tables as it found them, and the stampede's reset follows anyway.
if [ "$backend" = postgres ]; then
  echo "== ceiling: the real path's bookings as bare set-based SQL (pgbench, 16 clients, 32 per transaction, ${ceiling_seconds} s)"
  (
    for pair in ${db//;/ }; do
      case "${pair%%=*}" in
        Host) export PGHOST="${pair#*=}" ;; Port) export PGPORT="${pair#*=}" ;; Database) export PGDATABASE="${pair#*=}" ;;
        Username) export PGUSER="${pair#*=}" ;; Password) export PGPASSWORD="${pair#*=}" ;;
      esac
    done
    PG_BIN="$pg_bin" "${gen_pin[@]}" loadtest/ceiling/ceiling.sh --seconds "$ceiling_seconds" --clients 16 --batch 32 --out "$results/ceiling.json"
  ) || echo "ceiling FAILED (see above)"
fi

capacity=$(jq '.goodputPerSecond' "$results/reserve.json")
echo "== stampede: warm-up at half the measured capacity ($capacity/s), then a step to ${step_factor}× capacity"
if [ "$use_stack" = 1 ]; then
  ./slots stack down >>"$work/stack.log" 2>&1
  stack_up shipped   # HAProxy's and the API's shipped per-client limits, queue and maxconn
elif [ "$external" = 0 ]; then
  stop_apis
  start_apis 30   # the shipped per-client limit: 30 writes per 10 s per address
fi
fresh
"${lt[@]}" run --target "$target" --scenario stampede --endpoint reserve --flow spa --mode open \
  --warmup-rate "$(jq -n "$capacity / 2")" --warmup-seconds 5 --capacity "$capacity" --step-factor "$step_factor" \
  --duration "$((duration + 5))" --max-in-flight 2000 --give-up 30 --seed 11 \
  "${watch[@]}" "${at_server[@]}" "${audit[@]}" --json "$results/stampede.json" || echo "stampede audit FAILED (see above)"

# Demand far above supply: the same step, every arrival after one place's week (a few hundred to
# about a thousand free seats), so most answers are 409 slot-full, 429, or "no free seat" from the
# availability read: what the answers that are not bookings cost.
echo "== sold-out stampede: the same step, everyone after one place's week"
fresh
"${lt[@]}" run --target "$target" --scenario soldout --endpoint reserve --flow spa --mode open \
  --warmup-rate "$(jq -n "$capacity / 2")" --warmup-seconds 5 --capacity "$capacity" --step-factor "$step_factor" \
  --duration "$((duration + 5))" --max-in-flight 2000 --give-up 30 --seed 13 \
  --max-places 1 --hot-places 1 --hot-days 1 --hot-share 1 \
  "${watch[@]}" "${at_server[@]}" "${audit[@]}" --json "$results/soldout.json" || echo "sold-out stampede audit FAILED (see above)"

# A waiting room in front of one place: an opening a few seconds ahead, 20× more arrivals than seats
# (some in the pre-queue, most after the opening), booking only with an admission. Checks: every seat
# booked and no more, nobody admitted after the sell-out, everyone waiting told, first in first out.
room_seats=$([ "$quick" = 1 ] && echo 68 || echo 340)
echo "== waiting-room stampede: $((room_seats * 20)) arrivals for $room_seats seats behind an opening"
if [ "$external" = 0 ] && [ "$backend" = postgres ]; then
  # The serving counter is a scheduler job, and on PostgreSQL the API runs no jobs (the stack has scheduler hosts):
  # the first instance runs them for this step, once the earlier scenarios' hot changes are flushed to disk.
  stop_apis
  start_apis 30 Slots__Scheduler__InProcess=true
  for _ in $(seq 1 360); do
    lag=$(curl -fs -H "X-Api-Key: $admin_key" "${api_urls[0]}/api/admin/jobs" | jq -r '.flushLagSeconds' 2>/dev/null || echo "?")
    [ "$lag" = 0 ] && break
    sleep 0.5
  done
  [ "$lag" = 0 ] || echo "   (the flush of earlier hot changes has not caught up: lag $lag s; going on)"
fi
"${lt[@]}" room --target "$target" --admin-key "$admin_key" --seats "$room_seats" --seed 19 \
  "${watch[@]}" "${proxy_log[@]}" "${audit[@]}" --json "$results/room.json" || echo "waiting-room stampede FAILED (see above)"
if [ "$external" = 0 ]; then
  # The probes measure what a read costs, not the per-client limit (and on PostgreSQL without the room's jobs);
  # each warms the fresh instances up first, uncounted.
  stop_apis
  start_apis 100000000
fi

echo "== availability of a week at one place with $(jq '.seats' "$results/seed.json") hot seats"
"${lt[@]}" availability --target "${target%%,*}" --requests "$([ "$quick" = 1 ] && echo 300 || echo 3000)" --concurrency 4 --days 7 \
  --warmup-seconds 5 "${watch[@]}" "${at_server[@]}" --json "$results/availability.json"
# The same week read by everyone (one place), 32 at a time: the answers the API keeps, and the API's CPU per answer
# (target ≤ 50 µs); without a proxy only the instance read is watched, so the other's idle CPU does not count.
one_api=("${watch[@]}") && [ "$external" = 1 ] || one_api=(--watch-pids "${pids%%,*}")
echo "== availability of one place's week, read by everyone"
"${lt[@]}" availability --target "${target%%,*}" --places 1 --requests "$([ "$quick" = 1 ] && echo 10000 || echo 30000)" --concurrency 32 --days 7 \
  --warmup-seconds 5 "${one_api[@]}" "${at_server[@]}" --json "$results/availability-kept.json"

# A vaccine finder (issue 41): the first SMART Scheduling Links publication of the whole seeded campaign (target: under
# 10 s), then the manifest polled every second for a minute and more (one publication refresh at least), the files read
# again on each new publication; the API's CPU meanwhile against its CPU in the stampede (target ≤ 2 %).
echo "== finder: the bulk publication, then a poll every second"
"${lt[@]}" finder --target "${target%%,*}" --seconds "$([ "$quick" = 1 ] && echo 10 || echo 65)" --interval 1 \
  "${watch[@]}" --json "$results/finder.json"

# The site's day at the same scale (issue 40): 1,200 bookings at a place of its own, its roster read by 8 staff (after 30 s
# of the same reads uncounted: the roster's code is new to the instances and the JIT takes that long on 2 cores) while the
# door checks each booking in once, 8 at a time, and a block cancel of the next day's 1,200 in one request.
echo "== the site's day: roster, check-in, block cancel"
site_sign_in=(--staff-signing-key "$staff_key") && [ "$external" = 0 ] || [ -n "${SLOTS_BENCH_STAFF_KEY:-}" ] || site_sign_in=()
"${lt[@]}" site --target "${target%%,*}" --admin-key "$admin_key" "${site_sign_in[@]}" --seconds "$([ "$quick" = 1 ] && echo 3 || echo 10)" \
  --warmup-seconds "$([ "$quick" = 1 ] && echo 3 || echo 30)" \
  "${one_api[@]}" --json "$results/site.json" || echo "the site's day FAILED (see above)"

# The waiting list at the same scale with the product's job intervals (issue 40): 100 booked seats at a place of its own
# cancelled over 30 s, each offered to the next of a line of 1,000, claimed or declined. Its jobs run in the first API.
if [ "$external" = 0 ]; then
  stop_apis
  start_apis 100000000 Slots__Scheduler__InProcess=true
  one_api=(--watch-pids "${pids%%,*}")
fi
echo "== the waiting list: cancel to offer, claim"
"${lt[@]}" waitlist --target "${target%%,*}" --admin-key "$admin_key" --seconds "$([ "$quick" = 1 ] && echo 10 || echo 30)" \
  "${one_api[@]}" --json "$results/waitlist.json" || echo "the waiting list FAILED (see above)"

if [ "$backend" = postgres ] && [ -n "$pg_bin" ]; then
  # Proportional set size of the server and its backends: shared buffers counted once, not per process.
  postmaster=$(head -1 "$pg_data/postmaster.pid")
  pss=$(for p in $postmaster $(pgrep -P "$postmaster"); do awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null; done | awk '{s+=$1} END {printf "%.0f", s/1024}')
  echo "{\"postgresPssMb\": $pss}" > "$results/database-memory.json"
fi

{
  echo "Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) memory, load average at the end $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "Command: loadtest/run.sh --backend $backend$([ "$quick" = 1 ] && echo ' --quick')$([ -n "$sweep" ] && echo " --sweep ($sweep users, $sweep_duration s)")$([ "$split" = 1 ] && echo ' --split-cpus'); duration ${duration} s after a ${warmup} s warm-up, ${concurrency} users at a time, ${instances} API instance(s)$([ "$use_stack" = 1 ] && echo ' behind HAProxy (./slots stack)')$([ "$external" = 1 ] && [ "$use_stack" = 0 ] && echo ', external stack')."
  echo "CPUs: $split_text."
  [ -f "$results/database-memory.json" ] && echo "PostgreSQL memory (PSS of server + backends): $(jq '.postgresPssMb' "$results/database-memory.json") MB."
  echo
  "${lt[@]}" summarize --results "$results" --backend "$backend$([ "$use_stack" = 1 ] && echo ' behind HAProxy')"
} > "$results/summary.md"
echo
cat "$results/summary.md"
