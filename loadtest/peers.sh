#!/usr/bin/env bash
# How much of its budget a client gets when it switches between the two HAProxy nodes of the
# high-availability stack (haproxy/haproxy.cfg `peers`). Peers push whole stick-table values and the
# last writer wins, so counts raised on both nodes at once are partly overwritten: a client that
# alternates nodes is admitted more than one node's limit.
#
#   loadtest/peers.sh [--writes N] [--seconds S]
#
# Two HAProxy nodes with the product's configuration, peers on loopback, and no API behind them:
# what the rate limit admits is answered 503 (no server), what it refuses 429, so no API is needed.
# One client address (127.0.0.1), three ways, each for one rate period after the counters expired:
#   one node         every write to haproxy1
#   alternating      one stream, each write to the other node in turn
#   both at once     two streams in parallel, one per node
# Prints admitted writes per period for each, and writes loadtest/results/peers/peers.json.
set -euo pipefail
cd "$(dirname "$0")/.."

writes="${SLOTS_RATE_WRITES:-20}"; seconds=10
while [ $# -gt 0 ]; do
  case "$1" in
    --writes) writes="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
command -v haproxy >/dev/null || { echo "haproxy is required (apt-get install haproxy)" >&2; exit 1; }

work="$(mktemp -d)"
base="${SLOTS_PEERS_FIRST_PORT:-18600}"
front1=$base; front2=$((base + 1)); stats1=$((base + 2)); stats2=$((base + 3)); peer1=$((base + 4)); peer2=$((base + 5)); dead=$((base + 6))
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

# HTTPS, as the stack serves it: a certificate from a local CA of this run (scripts/tls.sh).
scripts/tls.sh local "$work/tls" >/dev/null
start_node() { # n front stats
  env SLOTS_FRONT_BIND="127.0.0.1:$2" SLOTS_STATS_BIND="127.0.0.1:$3" SLOTS_API_1="127.0.0.1:$dead" \
    SLOTS_TLS_CERT="$work/tls/server.pem" \
    SLOTS_PEER_1="127.0.0.1:$peer1" SLOTS_PEER_2="127.0.0.1:$peer2" \
    SLOTS_RATE_PERIOD_S="$seconds" SLOTS_RATE_WRITES="$writes" \
    haproxy -L "haproxy$1" -f haproxy/haproxy.cfg >"$work/haproxy$1.log" 2>&1 &
  pids+=($!)
}
start_node 1 "$front1" "$stats1"
start_node 2 "$front2" "$stats2"
# Until both mark the (absent) API down: from then on an admitted request is answered 503 at once.
for _ in $(seq 1 40); do
  n=0
  for s in "$stats1" "$stats2"; do
    curl -fsS --max-time 1 "http://127.0.0.1:$s/stats;csv" 2>/dev/null | awk -F, '$1 == "api" && $2 == "api1" && $18 ~ /^DOWN/' | grep -q . && n=$((n + 1))
  done
  [ "$n" -eq 2 ] && break
  sleep 0.5
done

# One write to a node; prints the status.
write() { curl -s -o /dev/null -w '%{http_code}\n' --max-time 2 -X POST -H 'Content-Type: application/json' -d '{}' --cacert "$work/tls/ca.crt" "https://127.0.0.1:$1/api/reservations"; }

# Sends writes for one period; $1: a list of ports taken in turn. Prints the admitted count.
stream() {
  local ports=("$@") i=0 admitted=0 code end=$((SECONDS + seconds))
  while [ $SECONDS -lt $end ]; do
    code="$(write "${ports[$((i % ${#ports[@]}))]}")"
    [ "$code" = 429 ] || admitted=$((admitted + 1))
    i=$((i + 1))
  done
  echo "$admitted"
}

# The counters of the last period have to be gone before the next way starts (the rate is a sliding estimate).
calm() { sleep $((2 * seconds + 1)); }

one="$(stream "$front1")"
calm
alternating="$(stream "$front1" "$front2")"
calm
stream "$front1" >"$work/a" & a=$!
stream "$front2" >"$work/b" & b=$!
wait "$a" "$b"
both=$(($(cat "$work/a") + $(cat "$work/b")))

mkdir -p loadtest/results/peers
cat >loadtest/results/peers/peers.json <<EOF
{"limitPerNode": $writes, "periodSeconds": $seconds, "oneNode": $one, "alternating": $alternating, "bothAtOnce": $both}
EOF
echo "limit per node: $writes writes per ${seconds}s, one client address"
echo "  one node:      $one admitted"
echo "  alternating:   $alternating admitted ($(awk -v a="$alternating" -v l="$writes" 'BEGIN { printf "%.2f", a / l }') x the limit)"
echo "  both at once:  $both admitted ($(awk -v a="$both" -v l="$writes" 'BEGIN { printf "%.2f", a / l }') x the limit)"
echo "written to loadtest/results/peers/peers.json"
