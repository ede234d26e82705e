#!/usr/bin/env bash
# The chaos soak (docs/reliability.md): a stack of its own on loopback (PostgreSQL, RabbitMQ, 3 API
# instances, 2 clustered scheduler nodes, HAProxy), a booking workload through HAProxy, a seeded
# nemesis (SIGKILL + restart of an API instance, a scheduler node or RabbitMQ; PostgreSQL fast and
# immediate shutdowns; SIGSTOP/SIGCONT of any part), then the final flush and relay and the checker.
#   ./slots chaos [--quick] [--seed N] [--faults N] [any other option of `Slots.LoadTest chaos`]
#   ./slots chaos --ha [...]   the same on the high-availability stack (./slots stack up --ha): 3 etcd, 3 Patroni
#                              PostgreSQL nodes, 3 RabbitMQ nodes, 2 HAProxy peers, and faults that kill whole
#                              nodes (the primary's postgres, its Patroni or both, a broker, an HAProxy, an etcd
#                              member); the workload books through both HAProxy nodes
# It builds the load test, the API and the scheduler in Release first; SLOTS_CHAOS_CONFIGURATION=Debug
# with SLOTS_CHAOS_BUILD=0 runs what `./slots test` has just built instead (about 3 minutes less on 2 cores).
# The stack lives in .stack-chaos/ (SLOTS_CHAOS_STACK_DIR), on ports of its own, and is wiped before
# and stopped after every run, also when the run fails. The history (synthetic persons' phones) is
# written to loadtest/results/chaos/, which git ignores.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0; seed=17; ha=0
for ((i = 1; i <= $#; i++)); do
  case "${!i}" in
    --quick) quick=1 ;;
    --ha) ha=1 ;;
    --seed) j=$((i + 1)); seed="${!j}" ;;
  esac
done

export SLOTS_STACK_DIR="${SLOTS_CHAOS_STACK_DIR:-$PWD/.stack-chaos}"
export SLOTS_FRONT_PORT="${SLOTS_CHAOS_FRONT_PORT:-8180}" SLOTS_STATS_PORT="${SLOTS_CHAOS_STATS_PORT:-8504}"
export SLOTS_REDIRECT_PORT="${SLOTS_CHAOS_REDIRECT_PORT:-8190}"
# The workload books over HTTPS, as people do, trusting the stack's local CA (scripts/tls.sh) and no other.
export SLOTS_TLS_CA="$SLOTS_STACK_DIR/tls/ca.crt"
# The ports of the servers the nemesis kills lie below Linux's ephemeral range (32768-60999): while
# one is down, a client's reconnect to it could be given that very port as its own source port,
# connect to itself and hold the port, and the server's restart failed with eaddrinuse.
export SLOTS_PG_PORT="${SLOTS_CHAOS_PG_PORT:-25532}" SLOTS_API_FIRST_PORT="${SLOTS_CHAOS_API_FIRST_PORT:-5111}"
export SLOTS_SCHEDULER_PORT="${SLOTS_CHAOS_SCHEDULER_PORT:-5189}"
export SLOTS_AMQP_PORT="${SLOTS_CHAOS_AMQP_PORT:-26730}" SLOTS_RABBIT_DIST_PORT="${SLOTS_CHAOS_RABBIT_DIST_PORT:-26731}"
export SLOTS_RABBIT_MGMT_PORT="${SLOTS_CHAOS_RABBIT_MGMT_PORT:-26732}" SLOTS_EPMD_PORT="${SLOTS_CHAOS_EPMD_PORT:-26733}"
export SLOTS_API_COUNT=3 SLOTS_SCHEDULER_COUNT=2
if [ "$ha" = 1 ]; then
  export SLOTS_STACK_HA=1 SLOTS_STACK_DIR="${SLOTS_CHAOS_STACK_DIR:-$PWD/.stack-chaos-ha}"
  export SLOTS_TLS_CA="$SLOTS_STACK_DIR/tls/ca.crt"
  # Below the ephemeral range too, for the same reason: the nemesis kills and restarts every node.
  export SLOTS_ETCD_FIRST_PORT="${SLOTS_CHAOS_ETCD_FIRST_PORT:-26900}" SLOTS_PG_NODE_FIRST_PORT="${SLOTS_CHAOS_PG_NODE_FIRST_PORT:-25541}"
  export SLOTS_PATRONI_FIRST_PORT="${SLOTS_CHAOS_PATRONI_FIRST_PORT:-28108}" SLOTS_RABBIT_FIRST_PORT="${SLOTS_CHAOS_RABBIT_FIRST_PORT:-26840}"
  export SLOTS_PEER_FIRST_PORT="${SLOTS_CHAOS_PEER_FIRST_PORT:-26890}"
  # Two API instances on 2 cores: the three database and three broker nodes need their share.
  export SLOTS_API_COUNT="${SLOTS_CHAOS_API_COUNT:-2}"
fi
# The soak is about faults, not about limits: HAProxy's and the API's per-client limits out of the way.
export SLOTS_RATE_WRITES=100000 SLOTS_RATE_READS=100000
export Slots__RateLimits__WritesPerWindow=100000 Slots__RateLimits__ReadsPerWindow=100000
# SMS retries within the soak's time (the defaults wait up to 10 minutes), still more tries than any outage lasts.
export Slots__Sms__RetryDelays__0=00:00:01 Slots__Sms__RetryDelays__1=00:00:03 Slots__Sms__RetryDelays__2=00:00:10 Slots__Sms__RetryDelays__3=00:00:30
export Slots__Sms__MaxTries=8

configuration="${SLOTS_CHAOS_CONFIGURATION:-Release}"
export SLOTS_STACK_CONFIGURATION="$configuration" SLOTS_STACK_BUILD="${SLOTS_CHAOS_BUILD:-1}"
built="$(echo "$configuration" | tr '[:upper:]' '[:lower:]')"   # the artifacts folder of the configuration
stack_dll="artifacts/bin/Slots.Stack/$built/Slots.Stack.dll" loadtest_dll="artifacts/bin/Slots.LoadTest/$built/Slots.LoadTest.dll"
stack() { dotnet "$stack_dll" "$@"; }

# Everything the run started is stopped, also on failure or Ctrl+C. A part the nemesis left paused
# (the soak killed mid-pause) gets SIGCONT first, or it could not stop.
stop_stack() {
  local part
  for part in postgres rabbitmq $(ls "$SLOTS_STACK_DIR/pids" 2>/dev/null | sed -n 's/\.pid$//p'); do
    stack pids "$part" 2>/dev/null | xargs -r kill -CONT 2>/dev/null || true
  done
  stack down >/dev/null 2>&1 || stack down || true
}
trap stop_stack EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

limit=$((quick == 1 ? 900 : 3600))
# (not `[ … ] && echo -quick`: its status 1 on a full run would end the script under set -e)
out="loadtest/results/chaos/$([ "$ha" = 0 ] || echo ha-)seed-$seed$([ "$quick" = 0 ] || echo -quick)"
if [ "$SLOTS_STACK_BUILD" = 1 ]; then
  for project in loadtest/Slots.LoadTest tools/Slots.Stack; do dotnet build "$project" -c "$configuration" --nologo -v quiet; done
fi
for dll in "$loadtest_dll" "$stack_dll"; do
  [ -f "$dll" ] || { echo "$dll is missing: build it, or leave SLOTS_CHAOS_BUILD unset." >&2; exit 2; }
done
stack wipe >/dev/null 2>&1 || true
stack up
rm -rf "$out"
if [ "$ha" = 1 ]; then
  targets="https://127.0.0.1:$SLOTS_FRONT_PORT,https://127.0.0.1:$((SLOTS_FRONT_PORT + 1))"
  db="Host=127.0.0.1:$SLOTS_PG_PORT,127.0.0.1:$((SLOTS_PG_PORT + 1));Database=slots;Username=postgres"
else
  targets="https://127.0.0.1:$SLOTS_FRONT_PORT"
  db="Host=127.0.0.1;Port=$SLOTS_PG_PORT;Database=slots;Username=postgres"
fi
timeout --kill-after=30 "$limit" dotnet exec "$loadtest_dll" chaos \
  --target "$targets" --db "$db" \
  --stack-dir "$SLOTS_STACK_DIR" --out "$out" --api-count "$SLOTS_API_COUNT" --scheduler-count "$SLOTS_SCHEDULER_COUNT" \
  --command "./slots chaos $*" "$@"
