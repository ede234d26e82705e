# The high-availability form of the stack (./slots stack up --ha), sourced by scripts/stack.sh.
# On one machine, as processes on loopback:
#   etcd1..3        one etcd cluster (Patroni's distributed configuration store)
#   pg1..3          PostgreSQL nodes managed by Patroni: one primary, one synchronous standby, one async
#   rabbitmq1..3    one RabbitMQ cluster; the SMS queues are quorum queues replicated to all three
#   haproxy1..2     two HAProxy nodes sharing their stick tables (peers); each also routes to the
#                   PostgreSQL primary, chosen by Patroni's /primary check
#   api1..N, scheduler, scheduler2   as in the single-node stack; their PostgreSQL connection string
#                   lists both HAProxy nodes, their RabbitMQ one all three brokers
# Why these settings, and what a confirmed booking survives in each state: docs/reliability.md.

# Every fixed port lies below Linux's ephemeral range (32768-60999), as the single stack's chaos ports do: a
# node that is killed and restarted could otherwise find its port taken as a client's source port (eaddrinuse).
ETCD_FIRST_PORT="${SLOTS_ETCD_FIRST_PORT:-26800}"        # member n: client FIRST + 2(n-1), peer + 1
PG_NODE_FIRST_PORT="${SLOTS_PG_NODE_FIRST_PORT:-25441}"  # pg n's postgres
PATRONI_FIRST_PORT="${SLOTS_PATRONI_FIRST_PORT:-28008}"  # pg n's Patroni REST API
PG_NODES="${SLOTS_PG_NODES:-3}"                          # 2..3 (docs/reliability.md: why 3)
RABBIT_FIRST_PORT="${SLOTS_RABBIT_FIRST_PORT:-26740}"    # node n: AMQP FIRST + 10(n-1), distribution + 1, management + 2
FRONT2_PORT="${SLOTS_FRONT2_PORT:-$((FRONT_PORT + 1))}"
REDIRECT2_PORT="${SLOTS_REDIRECT2_PORT:-$((REDIRECT_PORT + 1))}"
STATS2_PORT="${SLOTS_STATS2_PORT:-$((STATS_PORT + 1))}"
PG2_PORT="${SLOTS_PG2_PORT:-$((PG_PORT + 1))}"          # haproxy2's PostgreSQL listener (haproxy1's is PG_PORT)
PEER_FIRST_PORT="${SLOTS_PEER_FIRST_PORT:-26790}"        # haproxy n meets its peer on FIRST + n - 1
ADMIN_FIRST_PORT="${SLOTS_HAPROXY_ADMIN_FIRST_PORT:-$((STATS_PORT + 2))}"  # haproxy n's runtime API

if [ "$PG_NODES" -lt 2 ] || [ "$PG_NODES" -gt 3 ]; then
  echo "SLOTS_PG_NODES must be 2..3." >&2
  exit 2
fi

etcd_client_port() { echo $((ETCD_FIRST_PORT + 2 * ($1 - 1))); }
etcd_peer_port() { echo $((ETCD_FIRST_PORT + 2 * ($1 - 1) + 1)); }
pg_node_port() { echo $((PG_NODE_FIRST_PORT + $1 - 1)); }
patroni_port() { echo $((PATRONI_FIRST_PORT + $1 - 1)); }
rabbit_amqp_port() { echo $((RABBIT_FIRST_PORT + 10 * ($1 - 1))); }
rabbit_node() { echo "slots-ha-$1@localhost"; }
front_port() { if [ "$1" -eq 1 ]; then echo "$FRONT_PORT"; else echo "$FRONT2_PORT"; fi; }
redirect_port() { if [ "$1" -eq 1 ]; then echo "$REDIRECT_PORT"; else echo "$REDIRECT2_PORT"; fi; }
stats_port() { if [ "$1" -eq 1 ]; then echo "$STATS_PORT"; else echo "$STATS2_PORT"; fi; }
pg_proxy_port() { if [ "$1" -eq 1 ]; then echo "$PG_PORT"; else echo "$PG2_PORT"; fi; }

ha_connections() {
  # Both HAProxy nodes lead to the same primary. Npgsql marks a host it could not reach as offline for
  # Host Recheck Seconds (10 by default): both were unreachable while no node was primary, so the APIs
  # would wait 10 s after the promotion before trying again. 1 s follows a promotion at once.
  PG_CONNECTION="Host=127.0.0.1:$PG_PORT,127.0.0.1:$PG2_PORT;Host Recheck Seconds=1;Database=slots;Username=postgres"
  local urls=() n
  for n in 1 2 3; do urls+=("amqp://guest:guest@127.0.0.1:$(rabbit_amqp_port "$n")/"); done
  AMQP_URL="$(IFS=,; echo "${urls[*]}")"
  APP_ENV+=(ConnectionStrings__Slots="$PG_CONNECTION" ConnectionStrings__RabbitMq="$AMQP_URL")
}

etcd_endpoints() {
  local out=() n
  for n in 1 2 3; do out+=("127.0.0.1:$(etcd_client_port "$n")"); done
  (IFS=,; echo "${out[*]}")
}

# Waits like wait_for, but gives up at once when the part's process has exited, naming it and its log
# (a Patroni or etcd that cannot start says why there, then exits or never answers).
wait_node() {
  local part="$1" what="$2"; shift 2
  local deadline=$((SECONDS + WAIT_S))
  until "$@"; do
    if ! alive "$part"; then
      say "  $what: $part exited while starting; its log is $LOGS/$part.log. Last lines:" >&2
      tail -n 15 "$LOGS/$part.log" 2>/dev/null | sed 's/^/    /' >&2
      return 1
    fi
    if [ $SECONDS -ge $deadline ]; then
      say "  $what: not healthy after ${WAIT_S}s; see $LOGS/$part.log" >&2
      return 1
    fi
    sleep 0.5
  done
}

# ---- etcd -----------------------------------------------------------------------------------------

etcd_healthy() { curl -fsS --max-time 2 "http://127.0.0.1:$(etcd_client_port "$1")/health" 2>/dev/null | grep -q '"health":"true"'; }

etcd_up() {
  local n="$1" name="etcd$1"
  if alive "$name"; then say "  $name: already running"; return; fi
  command -v etcd >/dev/null || { say "etcd not found (apt-get install etcd-server)." >&2; exit 1; }
  need_port "$name" "$(etcd_client_port "$n")"
  need_port "$name-peer" "$(etcd_peer_port "$n")"
  local cluster=() m
  for m in 1 2 3; do cluster+=("etcd$m=http://127.0.0.1:$(etcd_peer_port "$m")"); done
  mkdir -p "$STATE/etcd"
  # Election timeout 2 s (default 1 s): on a starved 2-core machine a 100 ms heartbeat is missed now
  # and then, and a needless election costs Patroni a DCS round trip; still well inside Patroni's retry_timeout.
  spawn "$name" etcd --name "$name" --data-dir "$STATE/etcd/$name" \
    --listen-client-urls "http://127.0.0.1:$(etcd_client_port "$n")" --advertise-client-urls "http://127.0.0.1:$(etcd_client_port "$n")" \
    --listen-peer-urls "http://127.0.0.1:$(etcd_peer_port "$n")" --initial-advertise-peer-urls "http://127.0.0.1:$(etcd_peer_port "$n")" \
    --initial-cluster "$(IFS=,; echo "${cluster[*]}")" --initial-cluster-state new \
    --initial-cluster-token "slots-$(printf '%s' "$STATE" | md5sum | cut -c1-8)" \
    --heartbeat-interval 200 --election-timeout 2000 --logger zap
  say "  $name: starting, client 127.0.0.1:$(etcd_client_port "$n")"
}

# ---- PostgreSQL under Patroni ---------------------------------------------------------------------

patroni_config() {
  local n="$1" dir="$2" bin; bin="$(pg_bin)"
  cat >"$dir/patroni.yml" <<EOF
# Written by scripts/stack-ha.sh; the reasons for each timing are in docs/reliability.md.
scope: slots
namespace: /slots-stack/
name: pg$n
log:
  level: INFO
restapi:
  listen: 127.0.0.1:$(patroni_port "$n")
  connect_address: 127.0.0.1:$(patroni_port "$n")
etcd3:
  hosts: $(etcd_endpoints)
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 4
    primary_start_timeout: 0
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    synchronous_mode_strict: false
    synchronous_node_count: 1
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        max_connections: 300
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
        synchronous_commit: "on"
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:$(pg_node_port "$n")
  connect_address: 127.0.0.1:$(pg_node_port "$n")
  data_dir: $dir/data
  bin_dir: $bin
  pgpass: $dir/pgpass
  authentication:
    superuser: {username: postgres, password: postgres}
    replication: {username: replicator, password: replicator}
    rewind: {username: postgres, password: postgres}
  parameters:
    unix_socket_directories: $dir
$(backup_parameters "$n")
tags:
  nofailover: false
  noloadbalance: false
EOF
}

patroni_state() { curl -fsS --max-time 2 "http://127.0.0.1:$(patroni_port "$1")/patroni" 2>/dev/null; }

# Running and serving: the leader, or a replica that streams.
pg_node_healthy() { curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$(patroni_port "$1")/health" 2>/dev/null; }

pg_node_up() {
  local n="$1" name="pg$1" dir; dir="$(pg_folder)/pg$1"
  if alive "$name"; then say "  $name: already running"; return; fi
  command -v patroni >/dev/null || { say "Patroni not found (apt-get install patroni)." >&2; exit 1; }
  # Its own postgres may still run (its Patroni was killed): the new Patroni takes it over, demotes
  # and rewinds it when another node leads. Any other process on the port is refused.
  local own=""
  [ -f "$dir/data/postmaster.pid" ] && kill -0 "$(head -n 1 "$dir/data/postmaster.pid")" 2>/dev/null && own=1
  [ -n "$own" ] || need_port "$name" "$(pg_node_port "$n")"
  need_port "$name-patroni" "$(patroni_port "$n")"
  mkdir -p "$dir"
  patroni_config "$n" "$dir"
  [ "$(id -u)" -ne 0 ] || chown -R postgres:postgres "$dir"
  # exec keeps the PID: the PID file names Patroni itself, not a wrapper (the chaos soak kills it by PID).
  if [ "$(id -u)" -eq 0 ]; then
    spawn "$name" setpriv --reuid=postgres --regid=postgres --init-groups patroni "$dir/patroni.yml"
  else
    spawn "$name" patroni "$dir/patroni.yml"
  fi
  say "  $name: starting, postgres 127.0.0.1:$(pg_node_port "$n"), Patroni http://127.0.0.1:$(patroni_port "$n")/"
}

# The cluster as Patroni's REST API sees it (any node answers for all), as TSV: name role state lag.
pg_cluster() {
  local n
  for n in $(seq 1 "$PG_NODES"); do
    curl -fsS --max-time 2 "http://127.0.0.1:$(patroni_port "$n")/cluster" 2>/dev/null | /usr/bin/python3 -c '
import json, sys
for m in json.load(sys.stdin).get("members", []):
    print(m["name"], m.get("role", "?"), m.get("state", "?"), m.get("lag", 0), sep="\t")' && return 0
  done
  return 1
}

pg_primary_name() { pg_cluster | awk -F'\t' '$2 == "leader" || $2 == "master" || $2 == "primary" { print $1; exit }'; }

# A leader, and a synchronous standby that streams: a booking's commit is on two nodes before its 201.
pg_cluster_ready() {
  local cluster; cluster="$(pg_cluster)" || return 1
  printf '%s\n' "$cluster" | awk -F'\t' '$2 ~ /^(leader|master|primary)$/ && $3 == "running"' | grep -q . || return 1
  printf '%s\n' "$cluster" | awk -F'\t' '$2 ~ /^sync/ && ($3 == "running" || $3 == "streaming")' | grep -q .
}

# ---- RabbitMQ, three nodes ------------------------------------------------------------------------

rabbit_env_of() {
  local n="$1" port; port="$(rabbit_amqp_port "$1")"
  RABBIT_NODE_ENV=(HOME="$STATE/rabbitmq-ha"
    RABBITMQ_NODENAME="$(rabbit_node "$n")" RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_NODE_PORT="$port"
    RABBITMQ_DIST_PORT=$((port + 1)) ERL_EPMD_PORT="$EPMD_PORT" ERL_EPMD_ADDRESS=127.0.0.1
    RABBITMQ_CTL_DIST_PORT_MIN=$((port + 3)) RABBITMQ_CTL_DIST_PORT_MAX=$((port + 9))
    RABBITMQ_CONF_ENV_FILE="$STATE/rabbitmq-ha/empty.env"
    RABBITMQ_MNESIA_BASE="$STATE/rabbitmq-ha/node$n/mnesia" RABBITMQ_LOG_BASE="$LOGS/rabbitmq$n"
    RABBITMQ_CONFIG_FILE="$STATE/rabbitmq-ha/node$n/rabbitmq.conf" RABBITMQ_ENABLED_PLUGINS_FILE="$STATE/rabbitmq-ha/node$n/enabled_plugins")
}

rabbitmqctl_on() { local n="$1"; shift; rabbit_env_of "$n"; env "${RABBIT_NODE_ENV[@]}" /usr/lib/rabbitmq/bin/rabbitmqctl "$@"; }

rabbit_node_healthy() {
  alive epmd || return 1
  rabbit_env_of "$1"
  env "${RABBIT_NODE_ENV[@]}" /usr/lib/rabbitmq/bin/rabbitmq-diagnostics -q check_running >/dev/null 2>&1
}

rabbit_node_up() {
  local n="$1" name="rabbitmq$1" port; port="$(rabbit_amqp_port "$1")"
  if alive "$name"; then say "  $name: already running"; return; fi
  [ -x /usr/lib/rabbitmq/bin/rabbitmq-server ] || { say "RabbitMQ not found (apt-get install rabbitmq-server)." >&2; exit 1; }
  need_port "$name" "$port"
  need_port "$name-distribution" $((port + 1))
  local dir="$STATE/rabbitmq-ha/node$n"
  mkdir -p "$dir" "$LOGS/rabbitmq$n"
  : >"$STATE/rabbitmq-ha/empty.env"
  # One cookie for the three nodes and their CLI, in the private HOME.
  if [ ! -f "$STATE/rabbitmq-ha/.erlang.cookie" ]; then
    head -c 24 /dev/urandom | md5sum | cut -c1-20 >"$STATE/rabbitmq-ha/.erlang.cookie"
    chmod 400 "$STATE/rabbitmq-ha/.erlang.cookie"
  fi
  # A blank node joins the first reachable one of these at its first boot (rabbitmq1 is started
  # alone first and forms the cluster); a restarted node rejoins its cluster from its own data.
  {
    echo "listeners.tcp.default = 127.0.0.1:$port"
    echo "cluster_formation.peer_discovery_backend = classic_config"
    for m in 1 2 3; do echo "cluster_formation.classic_config.nodes.$m = $(rabbit_node "$m")"; done
    if [ "$n" -eq 1 ]; then
      echo "management.tcp.ip = 127.0.0.1"
      echo "management.tcp.port = $((port + 2))"
    fi
  } >"$dir/rabbitmq.conf"
  if [ "$n" -eq 1 ]; then echo "[rabbitmq_management]." >"$dir/enabled_plugins"; else echo "[]." >"$dir/enabled_plugins"; fi
  if ! alive epmd; then
    need_port epmd "$EPMD_PORT"
    spawn epmd epmd -port "$EPMD_PORT" -address 127.0.0.1
  fi
  rabbit_env_of "$n"
  spawn "$name" env "${RABBIT_NODE_ENV[@]}" /usr/lib/rabbitmq/bin/rabbitmq-server
  say "  $name: starting, amqp://127.0.0.1:$port/ ($(rabbit_node "$n"))"
}

rabbit_cluster_size() {
  local n
  for n in 1 2 3; do
    rabbitmqctl_on "$n" -q cluster_status --formatter json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
print(len(json.load(sys.stdin).get("running_nodes", [])))' 2>/dev/null && return 0
  done
  echo 0
}

rabbit_cluster_ready() { [ "$(rabbit_cluster_size)" -eq 3 ]; }

# ---- HAProxy, two peers ---------------------------------------------------------------------------

haproxy_node_env() {
  local n="$1" i
  HAPROXY_ENV=(SLOTS_FRONT_BIND="127.0.0.1:$(front_port "$n")" SLOTS_STATS_BIND="127.0.0.1:$(stats_port "$n")"
    SLOTS_PEER_1="127.0.0.1:$PEER_FIRST_PORT" SLOTS_PEER_2="127.0.0.1:$((PEER_FIRST_PORT + 1))"
    SLOTS_ADMIN_SOCKET="ipv4@127.0.0.1:$((ADMIN_FIRST_PORT + n - 1))"
    SLOTS_PG_BIND="127.0.0.1:$(pg_proxy_port "$n")")
  # One certificate for both nodes; its revocation list is published by haproxy1's plain listener.
  tls_env "$(redirect_port "$n")" "$(front_port "$n")"
  for i in $(seq 1 "$API_COUNT"); do HAPROXY_ENV+=("SLOTS_API_$i=127.0.0.1:$(api_port "$i")"); done
  for i in $(seq 1 "$PG_NODES"); do HAPROXY_ENV+=("SLOTS_PG_$i=127.0.0.1:$(pg_node_port "$i")" "SLOTS_PG_CHECK_$i=$(patroni_port "$i")"); done
}

haproxy_node_up() {
  local n="$1" name="haproxy$1"
  if alive "$name"; then say "  $name: already running"; return; fi
  need_port "$name" "$(front_port "$n")"
  need_port "$name-stats" "$(stats_port "$n")"
  need_port "$name-redirect" "$(redirect_port "$n")"
  need_port "$name-postgres" "$(pg_proxy_port "$n")"
  need_port "$name-peer" $((PEER_FIRST_PORT + n - 1))
  need_port "$name-admin" $((ADMIN_FIRST_PORT + n - 1))
  tls_up
  haproxy_node_env "$n"
  env "${HAPROXY_ENV[@]}" haproxy -c -q -L "$name" -f haproxy/haproxy.cfg
  if [ -s "$LOGS/$name.log" ]; then
    cat "$LOGS/$name.log" >>"$LOGS/$name.previous.log" && : >"$LOGS/$name.log"
  fi
  spawn "$name" env "${HAPROXY_ENV[@]}" haproxy -W -L "$name" -f haproxy/haproxy.cfg
  say "  $name: starting on https://127.0.0.1:$(front_port "$n")/ (PostgreSQL primary on 127.0.0.1:$(pg_proxy_port "$n"))"
}

haproxy_runtime() { # n command: HAProxy's runtime API over its loopback TCP socket
  local port=$((ADMIN_FIRST_PORT + $1 - 1))
  { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || return 1
  printf '%s\n' "$2" >&3
  timeout 2 cat <&3
  exec 3<&-
}

haproxy_node_apis_up() {
  local csv; csv="$(curl -fsS --max-time 2 "http://127.0.0.1:$(stats_port "$1")/stats;csv" 2>/dev/null)" || return 1
  [ "$(printf '%s\n' "$csv" | awk -F, '$1 == "api" && $2 ~ /^api[0-9]/ && $18 ~ /^UP/' | wc -l)" -eq "$API_COUNT" ]
}

# The PostgreSQL server haproxy n sends connections to (the one whose /primary answers 200).
haproxy_node_pg() {
  curl -fsS --max-time 2 "http://127.0.0.1:$(stats_port "$1")/stats;csv" 2>/dev/null \
    | awk -F, '$1 == "postgres" && $2 ~ /^pg[0-9]/ && $18 ~ /^UP/ { print $2 }' | paste -sd, -
}

haproxy_node_has_primary() { [ -n "$(haproxy_node_pg "$1")" ]; }

haproxy_peer_sync() { # "ESTA" when this node's session to its peer is established
  haproxy_runtime "$1" "show peers" 2>/dev/null | grep -o 'id=haproxy[12](remote[^)]*)[^$]*status=[A-Z]*' | grep -o 'status=[A-Z]*' | head -n 1 | cut -d= -f2
}

# ---- the whole HA stack ---------------------------------------------------------------------------

ha_up() {
  mkdir -p "$LOGS" "$PIDS"
  touch "$STATE/ha"
  [ "$BUILD" = 0 ] || build
  say "Starting the high-availability stack in $STATE"
  local n
  for n in 1 2 3; do etcd_up "$n"; done
  for n in 1 2 3; do wait_node "etcd$n" "etcd$n" etcd_healthy "$n"; done
  # pgBackRest's configuration before any node: their archive_command reads it.
  if backup_enabled; then backup_write_config; fi
  # The first Patroni node bootstraps the cluster; the others then copy it (pg_basebackup).
  pg_node_up 1
  wait_node pg1 "pg1 (Patroni leader)" pg_node_healthy 1
  for n in $(seq 2 "$PG_NODES"); do pg_node_up "$n"; done
  for n in $(seq 2 "$PG_NODES"); do wait_node "pg$n" "pg$n (replica)" pg_node_healthy "$n"; done
  wait_for "PostgreSQL (a leader and a synchronous standby)" pg_cluster_ready
  if backup_enabled; then backup_init; else say "  pgbackrest not found: no WAL archive, no backups (apt-get install pgbackrest)"; fi
  rabbit_node_up 1
  wait_node rabbitmq1 "rabbitmq1" rabbit_node_healthy 1
  rabbit_node_up 2
  rabbit_node_up 3
  for n in 1 2; do haproxy_node_up "$n"; done
  for n in 1 2; do wait_node "haproxy$n" "haproxy$n (routes to the primary)" haproxy_node_has_primary "$n"; done
  psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'slots'" | grep -q 1 \
    || psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "CREATE DATABASE slots" >/dev/null
  wait_node rabbitmq2 "rabbitmq2" rabbit_node_healthy 2
  wait_node rabbitmq3 "rabbitmq3" rabbit_node_healthy 3
  wait_for "RabbitMQ cluster of 3" rabbit_cluster_ready
  api_up 1
  wait_for "api1" http_ok "http://127.0.0.1:$(api_port 1)/health/ready"
  for n in $(seq 2 "$API_COUNT"); do api_up "$n"; done
  for n in $(seq 2 "$API_COUNT"); do wait_for "api$n" http_ok "http://127.0.0.1:$(api_port "$n")/health/ready"; done
  for n in $(seq 1 "$SCHEDULER_COUNT"); do scheduler_up "$n"; done
  for n in 1 2; do wait_for "haproxy$n (every API server UP)" haproxy_node_apis_up "$n"; done
  for n in $(seq 1 "$SCHEDULER_COUNT"); do
    wait_for "$(scheduler_name "$n")" http_ok "http://127.0.0.1:$(scheduler_port "$n")/health/ready"
  done
  [ "$BUILD" = 0 ] && return
  say ""
  say "Slots:           https://127.0.0.1:$FRONT_PORT/ and https://127.0.0.1:$FRONT2_PORT/   (2 HAProxy peers, $API_COUNT API instances)"
  tls_note
  say "PostgreSQL:      psql -h 127.0.0.1 -p $PG_PORT -U postgres slots   (the primary, through haproxy1; $PG2_PORT through haproxy2)"
  say "Patroni:         http://127.0.0.1:$PATRONI_FIRST_PORT/cluster   RabbitMQ: $AMQP_URL"
  say "Roles and lag:   ./slots stack status        Stop with: ./slots stack down"
}

ha_down() {
  say "Stopping the high-availability stack in $STATE"
  local pidfile name
  for name in haproxy1 haproxy2; do stop_pid "$name"; done
  for pidfile in "$PIDS"/scheduler*.pid "$PIDS"/api*.pid; do
    [ -e "$pidfile" ] || continue
    stop_pid "$(basename "$pidfile" .pid)"
  done
  for name in rabbitmq3 rabbitmq2 rabbitmq1; do stop_pid "$name"; done
  stop_pid epmd
  # Replicas first, the leader last: no failover while the cluster stops.
  local leader; leader="$(pg_primary_name 2>/dev/null || true)"
  for name in pg3 pg2 pg1; do [ "$name" = "$leader" ] || stop_pid "$name"; done
  [ -z "$leader" ] || stop_pid "$leader"
  # A postgres whose Patroni was killed outlives it (its own session): stop it by its PID file.
  local folder; folder="$(pg_folder)"
  for n in 1 2 3; do
    if [ -f "$folder/pg$n/data/postmaster.pid" ]; then
      local pid; pid="$(head -n 1 "$folder/pg$n/data/postmaster.pid")"
      if kill -0 "$pid" 2>/dev/null; then kill -INT "$pid" 2>/dev/null || true; say "  pg$n's postgres stopped"; fi
    fi
  done
  for name in etcd1 etcd2 etcd3; do stop_pid "$name"; done
}

ha_status() {
  say "High-availability stack in $STATE"
  line PART PID STATE ROLE
  local n
  for n in 1 2 3; do
    local st; st="$(curl -fsS --max-time 2 -X POST -d '{}' "http://127.0.0.1:$(etcd_client_port "$n")/v3/maintenance/status" 2>/dev/null \
      | /usr/bin/python3 -c '
import json, sys
s = json.load(sys.stdin)
print("leader" if s.get("leader") == s.get("header", {}).get("member_id") else "follower", "raft term", s.get("raftTerm", "?"))' 2>/dev/null || echo "no answer")"
    line "etcd$n" "$(cat "$PIDS/etcd$n.pid" 2>/dev/null || echo -)" "$(alive "etcd$n" && echo up || echo down)" "$st, 127.0.0.1:$(etcd_client_port "$n")"
  done
  local cluster; cluster="$(pg_cluster 2>/dev/null || true)"
  for n in $(seq 1 "$PG_NODES"); do
    local row; row="$(printf '%s\n' "$cluster" | awk -F'\t' -v name="pg$n" '$1 == name { printf "%s, %s, lag %s bytes", $2, $3, $4 }')"
    line "pg$n" "$(cat "$PIDS/pg$n.pid" 2>/dev/null || echo -)" "$(alive "pg$n" && echo up || echo down)" \
      "${row:-not in the cluster}, 127.0.0.1:$(pg_node_port "$n")"
  done
  local queues; queues="$(for m in 1 2 3; do rabbitmqctl_on "$m" -q list_queues name type leader members online --formatter json 2>/dev/null && break; done)"
  for n in 1 2 3; do
    line "rabbitmq$n" "$(cat "$PIDS/rabbitmq$n.pid" 2>/dev/null || echo -)" "$(alive "rabbitmq$n" && echo up || echo down)" \
      "$(rabbit_node_healthy "$n" && echo "running" || echo "not running"), amqp 127.0.0.1:$(rabbit_amqp_port "$n")"
  done
  if [ -n "$queues" ]; then
    printf '%s\n' "$queues" | /usr/bin/python3 -c '
import json, sys
for q in json.load(sys.stdin):
    if q.get("type") != "quorum": continue
    members, online = q.get("members", []), q.get("online", [])
    print("  queue %-26s leader %s, %d replicas, %d online" % (q["name"], str(q.get("leader", "?")).split("@")[0], len(members), len(online)))'
  fi
  for n in 1 2; do
    local peer; peer="$(haproxy_peer_sync "$n" || true)"
    line "haproxy$n" "$(cat "$PIDS/haproxy$n.pid" 2>/dev/null || echo -)" "$(alive "haproxy$n" && echo up || echo down)" \
      "peer ${peer:-unknown}, primary $(haproxy_node_pg "$n" || true), $(haproxy_node_apis_up "$n" && echo "all API servers UP" || echo "not every API server UP"), https://127.0.0.1:$(front_port "$n")/"
  done
  for n in $(seq 1 "$API_COUNT"); do
    local url="http://127.0.0.1:$(api_port "$n")/health/ready"
    line "api$n" "$(cat "$PIDS/api$n.pid" 2>/dev/null || echo -)" "$(alive "api$n" && echo up || echo down)" \
      "$(http_ok "$url" && echo "ready" || echo "not ready"), $url"
  done
  for n in $(seq 1 "$SCHEDULER_COUNT"); do
    local name probe; name="$(scheduler_name "$n")"; probe="http://127.0.0.1:$(scheduler_port "$n")/health/ready"
    line "$name" "$(cat "$PIDS/$name.pid" 2>/dev/null || echo -)" "$(alive "$name" && echo up || echo down)" \
      "$(http_ok "$probe" && echo "ready" || echo "not ready"), $probe"
  done
}

# The process ids of one part. pgN: Patroni and its postgres (postmaster and backends);
# pgN-postgres: the postmaster alone; pgN-patroni: Patroni alone; primary / primary-postgres /
# primary-patroni: the same for whichever node leads now. rabbitmqN: the script and its Erlang VM.
# haproxyN: its master and workers.
ha_pids() {
  local part="$1"
  case "$part" in
    primary|primary-postgres|primary-patroni)
      local leader; leader="$(pg_primary_name)"
      [ -n "$leader" ] || return 1
      ha_pids "$leader${part#primary}"
      ;;
    pg[1-3]|pg[1-3]-postgres|pg[1-3]-patroni)
      local node="${part%%-*}" folder pm=""; folder="$(pg_folder)"
      if [ -f "$folder/$node/data/postmaster.pid" ]; then
        pm="$(head -n 1 "$folder/$node/data/postmaster.pid")"
        kill -0 "$pm" 2>/dev/null || pm=""
      fi
      case "$part" in
        *-postgres) [ -n "$pm" ] || return 1; echo "$pm" ;;
        *-patroni) alive "$node" && cat "$PIDS/$node.pid" ;;
        *) echo "$(alive "$node" && cat "$PIDS/$node.pid")" ${pm:+$pm $(pgrep -P "$pm" 2>/dev/null)} ;;
      esac
      ;;
    rabbitmq[1-3])
      alive "$part" || return 1
      local pid; pid="$(cat "$PIDS/$part.pid")"
      echo "$pid" $(pgrep -P "$pid" 2>/dev/null) $(pgrep -f "beam.smp.*$(rabbit_node "${part#rabbitmq}")" 2>/dev/null)
      ;;
    haproxy[1-2])
      alive "$part" || return 1
      local pid; pid="$(cat "$PIDS/$part.pid")"
      echo "$pid" $(pgrep -P "$pid" 2>/dev/null)
      ;;
    *) alive "$part" && cat "$PIDS/$part.pid" ;;
  esac
}

# Starts one part again and waits for it: a Patroni node until it serves (a killed primary comes
# back as a replica, rewound), a broker until it runs in the cluster again.
ha_start_part() {
  mkdir -p "$LOGS" "$PIDS"
  case "$1" in
    etcd[1-3]) etcd_up "${1#etcd}"; wait_node "$1" "$1" etcd_healthy "${1#etcd}" ;;
    pg[1-3])
      # A postgres whose Patroni was killed is left running: the new Patroni finds it, demotes and rewinds it.
      pg_node_up "${1#pg}"; wait_node "$1" "$1" pg_node_healthy "${1#pg}"; wait_for "PostgreSQL (a leader and a synchronous standby)" pg_cluster_ready ;;
    rabbitmq[1-3]) rabbit_node_up "${1#rabbitmq}"; wait_node "$1" "$1" rabbit_node_healthy "${1#rabbitmq}"; wait_for "RabbitMQ cluster of 3" rabbit_cluster_ready ;;
    haproxy[1-2]) haproxy_node_up "${1#haproxy}"; wait_node "$1" "$1" haproxy_node_has_primary "${1#haproxy}" ;;
    api*) api_up "${1#api}"; wait_for "$1" http_ok "http://127.0.0.1:$(api_port "${1#api}")/health/ready" ;;
    scheduler*)
      local n="${1#scheduler}"; n="${n:-1}"
      scheduler_up "$n"; wait_for "$1" http_ok "http://127.0.0.1:$(scheduler_port "$n")/health/ready" ;;
    *) say "unknown part $1" >&2; return 2 ;;
  esac
}

ha_wipe() {
  ha_down
  rm -rf "$STATE" "$(pg_folder)"
}
