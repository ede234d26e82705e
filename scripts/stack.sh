#!/usr/bin/env bash
# The server stack on one machine, as real processes on loopback:
#   PostgreSQL, RabbitMQ, N API instances, the scheduler (when it exists), HAProxy in front.
# Usage (through ./slots, which installs missing Debian packages first):
#   ./slots stack up       build once, start what is not running, wait until healthy, print the URLs
#   ./slots stack up --ha  the high-availability form instead (scripts/stack-ha.sh): etcd, Patroni-managed
#                          PostgreSQL nodes, a 3-node RabbitMQ cluster, 2 HAProxy peers; the state folder
#                          remembers the form, so down, status, pids and start need no flag
#   ./slots stack down     stop everything (SIGTERM, bounded wait, then SIGKILL)
#   ./slots stack status   each process and its health, and each .NET process's key figures from /metrics
#   ./slots stack reload-cert [--renew]   HAProxy reloads its certificate without dropping a connection
#                          (SIGUSR2 to its master; --renew first issues a new one from the local CA), then
#                          checks that the served certificate is the file's
#   scripts/stack.sh pids PART          the process ids of one part (api1, scheduler2, postgres, rabbitmq, …), for the chaos soak
#   scripts/stack.sh pg-stop fast|immediate   stops PostgreSQL the way a crash or an operator would (loadtest/chaos.sh)
#   scripts/stack.sh start PART         starts one part again and waits for its health (the chaos soak's heal)
#   scripts/stack.sh stop PART          (HA stack) stops one part by its PID file (the restore drill pauses the scheduler)
#   ./slots stack backup [--type full|incr]   (HA stack) a pgBackRest backup; WAL is archived all the time
#   ./slots stack restore --to "TIME"   (HA stack) the cluster as it was at TIME (scripts/stack-backup.sh)
#   scripts/stack.sh wipe               stops everything and deletes the state folder (and PostgreSQL's data)
# State (data, logs, PIDs) lives in .stack/ (SLOTS_STACK_DIR), ignored by git.
# HTTPS only: HAProxy serves SLOTS_TLS_CERT (one PEM file: the chain, then the key; README "TLS"), or,
# when that is unset, a certificate for localhost and 127.0.0.1 that a local CA in .stack/tls/ issues
# (scripts/tls.sh; trust .stack/tls/ca.crt, e.g. curl --cacert). Plain HTTP on SLOTS_REDIRECT_PORT redirects.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

STATE="${SLOTS_STACK_DIR:-$ROOT/.stack}"
FRONT_PORT="${SLOTS_FRONT_PORT:-8443}"          # HTTPS
REDIRECT_PORT="${SLOTS_REDIRECT_PORT:-8080}"     # plain HTTP: redirects to HTTPS, serves the local CA's revocation list
STATS_PORT="${SLOTS_STATS_PORT:-8404}"
PG_PORT="${SLOTS_PG_PORT:-55432}"
API_COUNT="${SLOTS_API_COUNT:-2}"            # 1..4: haproxy.cfg has SLOTS_API_1 .. SLOTS_API_4
API_FIRST_PORT="${SLOTS_API_FIRST_PORT:-5101}"
SCHEDULER_PORT="${SLOTS_SCHEDULER_PORT:-5199}"   # the scheduler host's health probes (node n on SCHEDULER_PORT + n - 1)
SCHEDULER_COUNT="${SLOTS_SCHEDULER_COUNT:-1}"    # 1..2 clustered scheduler nodes: scheduler, scheduler2
BUILD="${SLOTS_STACK_BUILD:-1}"                  # 0: `up` starts what is built (the chaos soak's restarts)
AMQP_PORT="${SLOTS_AMQP_PORT:-56720}"
RABBIT_DIST_PORT="${SLOTS_RABBIT_DIST_PORT:-56721}"
RABBIT_MGMT_PORT="${SLOTS_RABBIT_MGMT_PORT:-56722}"
EPMD_PORT="${SLOTS_EPMD_PORT:-56723}"
WAIT_S="${SLOTS_STACK_WAIT_S:-90}"           # how long `up` waits for each part to become healthy
CONFIGURATION="${SLOTS_STACK_CONFIGURATION:-Release}"

LOGS="$STATE/logs"
PIDS="$STATE/pids"
TLS="$STATE/tls"
TLS_CERT="${SLOTS_TLS_CERT:-$TLS/server.pem}"
RABBIT_NODE="slots-stack@localhost"
AMQP_URL="amqp://guest:guest@127.0.0.1:$AMQP_PORT/"
PG_CONNECTION="Host=127.0.0.1;Port=$PG_PORT;Database=slots;Username=postgres"

if [ "$SCHEDULER_COUNT" -lt 1 ] || [ "$SCHEDULER_COUNT" -gt 2 ]; then
  echo "SLOTS_SCHEDULER_COUNT must be 1..2." >&2
  exit 2
fi

if [ "$API_COUNT" -lt 1 ] || [ "$API_COUNT" -gt 4 ]; then
  echo "SLOTS_API_COUNT must be 1..4 (haproxy.cfg names SLOTS_API_1 .. SLOTS_API_4)." >&2
  exit 2
fi

say() { printf '%s\n' "$*"; }

# A zombie (killed, not yet reaped: seconds on a busy machine) answers kill -0 but is not running.
alive() {
  [ -f "$PIDS/$1.pid" ] || return 1
  local pid; pid="$(cat "$PIDS/$1.pid")"
  kill -0 "$pid" 2>/dev/null || return 1
  [ ! -r "/proc/$pid/stat" ] || ! sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | grep -q '^[ZX]'
}

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

http_ok() { curl -fsS -o /dev/null --max-time 2 "$1" 2>/dev/null; }

# Waits until "$2..." succeeds, at most WAIT_S seconds; names $1 in the messages.
wait_for() {
  local what="$1"; shift
  local deadline=$((SECONDS + WAIT_S))
  until "$@"; do
    if [ $SECONDS -ge $deadline ]; then
      say "  $what: not healthy after ${WAIT_S}s; see $LOGS/" >&2
      return 1
    fi
    sleep 0.5
  done
}

# Refuses to start something on a port another process already holds.
need_port() {
  if port_busy "$2"; then
    say "  $1: port $2 is in use by another process; set the matching SLOTS_*_PORT." >&2
    exit 1
  fi
}

# Starts "$2..." in the background with output to $LOGS/$1.log and its PID in $PIDS/$1.pid.
spawn() {
  local name="$1"; shift
  nohup "$@" >>"$LOGS/$name.log" 2>&1 &
  echo $! >"$PIDS/$name.pid"
}

# SIGTERM, up to 20 s for a clean exit, then SIGKILL.
stop_pid() {
  local name="$1"
  alive "$name" || { rm -f "$PIDS/$name.pid"; return 0; }
  local pid; pid="$(cat "$PIDS/$name.pid")"
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 40); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    say "  $name did not stop in 20 s; SIGKILL" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$PIDS/$name.pid"
  say "  $name stopped"
}

# ---- PostgreSQL ---------------------------------------------------------------------------------

pg_bin() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  [ -n "$dir" ] && [ -x "$dir/initdb" ] || { say "PostgreSQL server binaries not found (apt-get install postgresql)." >&2; exit 1; }
  echo "$dir"
}

# initdb refuses root: run the server tools as the postgres user then.
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

pg_folder() {
  # The postgres user must reach its folder; under a private home it cannot, so use /var/tmp then.
  if [ "$(id -u)" -eq 0 ] && ! runuser -u postgres -- test -x "$STATE" 2>/dev/null; then
    echo "/var/tmp/slots-stack-postgres-$(printf '%s' "$STATE" | md5sum | cut -c1-8)"
  else
    echo "$STATE/postgres"
  fi
}

pg_healthy() { pg_isready -q -h 127.0.0.1 -p "$PG_PORT"; }

pg_up() {
  local bin folder; bin="$(pg_bin)"; folder="$(pg_folder)"
  if [ -f "$folder/data/postmaster.pid" ] && pg_healthy; then
    say "  postgres: already running on 127.0.0.1:$PG_PORT"
    return
  fi
  need_port postgres "$PG_PORT"
  if [ ! -f "$folder/data/PG_VERSION" ]; then
    mkdir -p "$folder/sock"
    [ "$(id -u)" -ne 0 ] || chown -R postgres:postgres "$folder"
    as_pg "$bin/initdb" -D "$folder/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >>"$LOGS/postgres-init.log" 2>&1
  fi
  as_pg "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t "$WAIT_S" start \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -c unix_socket_directories=$folder/sock -c max_connections=300" >/dev/null
  ln -sfn "$folder/server.log" "$LOGS/postgres.log"
  psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'slots'" | grep -q 1 \
    || psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "CREATE DATABASE slots" >/dev/null
  say "  postgres: 127.0.0.1:$PG_PORT (data in $folder/data)"
}

pg_down() {
  local folder; folder="$(pg_folder)"
  if [ -f "$folder/data/postmaster.pid" ]; then
    as_pg "$(pg_bin)/pg_ctl" -D "$folder/data" -m fast -w -t 30 stop >/dev/null && say "  postgres stopped"
  fi
}

# ---- RabbitMQ -----------------------------------------------------------------------------------

# A node of its own: own name, ports, epmd, folders and cookie (HOME), so it never meets another node.
RABBIT_ENV=(HOME="$STATE/rabbitmq"
  RABBITMQ_NODENAME="$RABBIT_NODE" RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_NODE_PORT="$AMQP_PORT"
  RABBITMQ_DIST_PORT="$RABBIT_DIST_PORT" ERL_EPMD_PORT="$EPMD_PORT" ERL_EPMD_ADDRESS=127.0.0.1
  RABBITMQ_MNESIA_BASE="$STATE/rabbitmq/mnesia" RABBITMQ_LOG_BASE="$LOGS/rabbitmq"
  RABBITMQ_CONFIG_FILE="$STATE/rabbitmq/rabbitmq.conf" RABBITMQ_ENABLED_PLUGINS_FILE="$STATE/rabbitmq/enabled_plugins")

# Only while our epmd runs: with none, the CLI would start an epmd daemon of its own and leave it behind.
rabbit_healthy() { alive epmd && env "${RABBIT_ENV[@]}" /usr/lib/rabbitmq/bin/rabbitmq-diagnostics -q ping >/dev/null 2>&1; }

rabbit_up() {
  if alive rabbitmq; then
    say "  rabbitmq: already running, $AMQP_URL"
    return
  fi
  [ -x /usr/lib/rabbitmq/bin/rabbitmq-server ] || { say "RabbitMQ not found (apt-get install rabbitmq-server)." >&2; exit 1; }
  need_port rabbitmq "$AMQP_PORT"
  need_port rabbitmq-management "$RABBIT_MGMT_PORT"
  mkdir -p "$STATE/rabbitmq/mnesia" "$LOGS/rabbitmq"
  cat >"$STATE/rabbitmq/rabbitmq.conf" <<EOF
listeners.tcp.default = 127.0.0.1:$AMQP_PORT
management.tcp.ip = 127.0.0.1
management.tcp.port = $RABBIT_MGMT_PORT
EOF
  echo "[rabbitmq_management]." >"$STATE/rabbitmq/enabled_plugins"
  # Our own epmd in the foreground, so `down` can stop it by PID (Erlang would otherwise leave a daemon behind).
  if ! alive epmd; then
    need_port epmd "$EPMD_PORT"
    spawn epmd epmd -port "$EPMD_PORT" -address 127.0.0.1
  fi
  spawn rabbitmq env "${RABBIT_ENV[@]}" /usr/lib/rabbitmq/bin/rabbitmq-server
  say "  rabbitmq: starting, $AMQP_URL (management http://127.0.0.1:$RABBIT_MGMT_PORT, guest/guest)"
}

rabbit_down() {
  # SIGTERM makes the server script run `rabbitmqctl stop`: a clean shutdown.
  stop_pid rabbitmq
  stop_pid epmd
}

# ---- API instances, scheduler, HAProxy ----------------------------------------------------------

pivot() { echo "$CONFIGURATION" | tr '[:upper:]' '[:lower:]'; }

api_dll() { echo "$ROOT/artifacts/bin/Slots.Api/$(pivot)/Slots.Api.dll"; }

scheduler_dll() { echo "$ROOT/artifacts/bin/Slots.Scheduler/$(pivot)/Slots.Scheduler.dll"; }

has_scheduler() { ls scheduler/Slots.Scheduler/*.csproj >/dev/null 2>&1; }

# Configuration every .NET process of the stack gets (appsettings keys, ':' written as '__').
# ASPNETCORE_ for the API, DOTNET_ for a generic-host scheduler.
APP_ENV=(ASPNETCORE_ENVIRONMENT="${ASPNETCORE_ENVIRONMENT:-Development}" DOTNET_ENVIRONMENT="${DOTNET_ENVIRONMENT:-Development}" DOTNET_NOLOGO=1
  Slots__Storage__Provider=Postgres ConnectionStrings__Slots="$PG_CONNECTION"
  ConnectionStrings__RabbitMq="$AMQP_URL"
  Slots__TrustedProxies__0=127.0.0.1
  # UTC timestamps on every log line, so a part's log can be laid beside the chaos soak's faults.
  Logging__Console__FormatterName=simple Logging__Console__FormatterOptions__UseUtcTimestamp=true
  "Logging__Console__FormatterOptions__TimestampFormat=yyyy-MM-ddTHH:mm:ss.fffZ ")

build() {
  say "Building ($CONFIGURATION)..."
  dotnet build api/Slots.Api -c "$CONFIGURATION" --nologo -v quiet
  if has_scheduler; then
    dotnet build scheduler/Slots.Scheduler -c "$CONFIGURATION" --nologo -v quiet
  fi
}

api_port() { echo $((API_FIRST_PORT + $1 - 1)); }

api_up() {
  local i="$1" port; port="$(api_port "$i")"
  if alive "api$i"; then
    say "  api$i: already running on 127.0.0.1:$port"
    return
  fi
  need_port "api$i" "$port"
  # The content root is the project folder: appsettings*.json and frontend/dist are found from there.
  (cd api/Slots.Api && spawn "api$i" env "${APP_ENV[@]}" ASPNETCORE_URLS="http://127.0.0.1:$port" \
    ConnectionStrings__Slots="$PG_CONNECTION;Application Name=api$i" dotnet exec "$(api_dll)")
  say "  api$i: starting on 127.0.0.1:$port"
}

scheduler_name() { if [ "$1" -eq 1 ]; then echo scheduler; else echo "scheduler$1"; fi; }

scheduler_port() { echo $((SCHEDULER_PORT + $1 - 1)); }

# Node n of the cluster: its own instance id (job_runs.instance) and its own SMS sink file in $STATE/sms,
# so two nodes never append to one file.
scheduler_up() {
  if ! has_scheduler; then
    say "  scheduler: skipped (scheduler/Slots.Scheduler is not in this checkout yet)"
    return
  fi
  local n="$1" name port; name="$(scheduler_name "$1")"; port="$(scheduler_port "$1")"
  if alive "$name"; then
    say "  $name: already running"
    return
  fi
  need_port "$name" "$port"
  mkdir -p "$STATE/sms"
  (cd scheduler/Slots.Scheduler && spawn "$name" env "${APP_ENV[@]}" ASPNETCORE_URLS="http://127.0.0.1:$port" \
    Slots__Scheduler__InstanceId="$name" Slots__Sms__File__Path="$STATE/sms/$name.jsonl" \
    ConnectionStrings__Slots="$PG_CONNECTION;Application Name=$name" dotnet exec "$(scheduler_dll)")
  say "  $name: starting on 127.0.0.1:$port (node $n)"
}

# The certificate HAProxy serves: the configured one, or the local CA's (made once, kept while valid).
tls_up() {
  if [ -n "${SLOTS_TLS_CERT:-}" ]; then
    [ -r "$SLOTS_TLS_CERT" ] || { say "  SLOTS_TLS_CERT=$SLOTS_TLS_CERT cannot be read." >&2; exit 1; }
    return
  fi
  SLOTS_TLS_CRL_URL="http://127.0.0.1:$REDIRECT_PORT/slots-local-ca.crl" scripts/tls.sh local "$TLS" | sed 's/^/  /'
}

# What haproxy.cfg needs for TLS: the certificate, the plain-HTTP listener that redirects, the local CA's CRL.
tls_env() {
  HAPROXY_ENV+=(SLOTS_TLS_CERT="$TLS_CERT" SLOTS_REDIRECT_BIND="127.0.0.1:$1" SLOTS_HTTPS_PORT="$2")
  [ -n "${SLOTS_TLS_CERT:-}" ] || HAPROXY_ENV+=(SLOTS_TLS_CRL="$TLS/ca.crl")
}

haproxy_env() {
  HAPROXY_ENV=(SLOTS_FRONT_BIND="127.0.0.1:$FRONT_PORT" SLOTS_STATS_BIND="127.0.0.1:$STATS_PORT")
  tls_env "$REDIRECT_PORT" "$FRONT_PORT"
  local i
  for i in $(seq 1 "$API_COUNT"); do HAPROXY_ENV+=("SLOTS_API_$i=127.0.0.1:$(api_port "$i")"); done
}

haproxy_up() {
  if alive haproxy; then
    say "  haproxy: already running on 127.0.0.1:$FRONT_PORT"
    return
  fi
  need_port haproxy "$FRONT_PORT"
  need_port haproxy-stats "$STATS_PORT"
  need_port haproxy-redirect "$REDIRECT_PORT"
  tls_up
  haproxy_env
  env "${HAPROXY_ENV[@]}" haproxy -c -q -f haproxy/haproxy.cfg
  # A restarted HAProxy writes its log from the start of the file, over the lines of the one before
  # (it resets stdout's flags, append included): those move to haproxy.previous.log first.
  if [ -s "$LOGS/haproxy.log" ]; then
    cat "$LOGS/haproxy.log" >>"$LOGS/haproxy.previous.log" && : >"$LOGS/haproxy.log"
  fi
  # Master-worker (-W): the PID file names the master, which a reload (SIGUSR2) keeps.
  spawn haproxy env "${HAPROXY_ENV[@]}" haproxy -W -f haproxy/haproxy.cfg
  say "  haproxy: starting on https://127.0.0.1:$FRONT_PORT/ (http://127.0.0.1:$REDIRECT_PORT/ redirects)"
}

haproxy_all_up() {
  local csv; csv="$(curl -fsS --max-time 2 "http://127.0.0.1:$STATS_PORT/stats;csv" 2>/dev/null)" || return 1
  [ "$(printf '%s\n' "$csv" | awk -F, '$1 == "api" && $2 ~ /^api[0-9]/ && $18 ~ /^UP/' | wc -l)" -eq "$API_COUNT" ]
}

# ---- commands -----------------------------------------------------------------------------------

up() {
  mkdir -p "$LOGS" "$PIDS"
  [ "$BUILD" = 0 ] || build
  say "Starting the stack in $STATE"
  pg_up
  rabbit_up
  # One instance first: it migrates the schema and creates the demo data on an empty database;
  # the others then find both done (the migrator's advisory lock would make a race safe anyway).
  api_up 1
  wait_for "api1" http_ok "http://127.0.0.1:$(api_port 1)/health/ready"
  for i in $(seq 2 "$API_COUNT"); do api_up "$i"; done
  for i in $(seq 2 "$API_COUNT"); do wait_for "api$i" http_ok "http://127.0.0.1:$(api_port "$i")/health/ready"; done
  wait_for "rabbitmq" rabbit_healthy
  for n in $(seq 1 "$SCHEDULER_COUNT"); do scheduler_up "$n"; done
  haproxy_up
  wait_for "haproxy (every API server UP)" haproxy_all_up
  if has_scheduler; then
    for n in $(seq 1 "$SCHEDULER_COUNT"); do
      wait_for "$(scheduler_name "$n")" http_ok "http://127.0.0.1:$(scheduler_port "$n")/health/ready"
    done
  fi
  [ "$BUILD" = 0 ] && return
  say ""
  say "Slots:           https://127.0.0.1:$FRONT_PORT/   (HAProxy in front of $API_COUNT API instances)"
  tls_note
  say "HAProxy stats:   http://127.0.0.1:$STATS_PORT/stats"
  say "RabbitMQ:        $AMQP_URL   management http://127.0.0.1:$RABBIT_MGMT_PORT/ (guest/guest)"
  say "PostgreSQL:      psql -h 127.0.0.1 -p $PG_PORT -U postgres slots"
  say "Logs and PIDs:   $LOGS, $PIDS       Stop with: ./slots stack down"
}

down() {
  say "Stopping the stack in $STATE"
  stop_pid haproxy
  for pidfile in "$PIDS"/scheduler*.pid; do
    [ -e "$pidfile" ] || continue
    stop_pid "$(basename "$pidfile" .pid)"
  done
  for pidfile in "$PIDS"/api*.pid; do
    [ -e "$pidfile" ] || continue
    stop_pid "$(basename "$pidfile" .pid)"
  done
  rabbit_down
  pg_down
}

tls_note() {
  if [ -n "${SLOTS_TLS_CERT:-}" ]; then
    say "Certificate:     $SLOTS_TLS_CERT"
  else
    say "Certificate:     from the local CA $TLS/ca.crt (curl --cacert $TLS/ca.crt, or import it into a browser)"
  fi
}

# SIGUSR2 to each HAProxy master (the parts named): it starts new workers with the config and the
# certificate read again, and the old workers finish the requests and connections they have. Then the
# served certificate must be the file's, or this fails.
reload_cert() {
  local renew="$1"; shift
  if [ "$renew" = 1 ]; then
    [ -z "${SLOTS_TLS_CERT:-}" ] || { say "--renew renews the local CA's certificate; $SLOTS_TLS_CERT is renewed by its own CA (certbot renew)." >&2; exit 2; }
    SLOTS_TLS_CRL_URL="http://127.0.0.1:$REDIRECT_PORT/slots-local-ca.crl" scripts/tls.sh renew "$TLS" | sed 's/^/  /'
  fi
  local want; want="$(scripts/tls.sh serial "$TLS_CERT")"
  local part port
  while [ $# -gt 0 ]; do
    part="$1" port="$2"; shift 2
    alive "$part" || { say "  $part is not running." >&2; exit 1; }
    kill -USR2 "$(cat "$PIDS/$part.pid")"
    local deadline=$((SECONDS + WAIT_S))
    until [ "$(scripts/tls.sh served "127.0.0.1:$port" 2>/dev/null)" = "$want" ]; do
      if [ $SECONDS -ge $deadline ]; then
        say "  $part still serves another certificate after ${WAIT_S}s; see $LOGS/$part.log" >&2
        exit 1
      fi
      sleep 0.2
    done
    say "  $part: serves certificate $want"
  done
}

line() { printf '  %-10s %-8s %-7s %s\n' "$@"; }

status() {
  say "Stack in $STATE"
  line PART PID STATE HEALTH
  local folder; folder="$(pg_folder)"
  local pgpid="-"; [ -f "$folder/data/postmaster.pid" ] && pgpid="$(head -n 1 "$folder/data/postmaster.pid")"
  line postgres "$pgpid" "$(pg_healthy && echo up || echo down)" "127.0.0.1:$PG_PORT"
  line rabbitmq "$(cat "$PIDS/rabbitmq.pid" 2>/dev/null || echo -)" "$(alive rabbitmq && echo up || echo down)" \
    "$(rabbit_healthy && echo "ping ok, $AMQP_URL" || echo "no ping")"
  for i in $(seq 1 "$API_COUNT"); do
    local url="http://127.0.0.1:$(api_port "$i")/health/ready"
    line "api$i" "$(cat "$PIDS/api$i.pid" 2>/dev/null || echo -)" "$(alive "api$i" && echo up || echo down)" \
      "$(http_ok "$url" && echo "ready, $url" || echo "not ready, $url")"
  done
  if has_scheduler; then
    for n in $(seq 1 "$SCHEDULER_COUNT"); do
      local name probe; name="$(scheduler_name "$n")"; probe="http://127.0.0.1:$(scheduler_port "$n")/health/ready"
      line "$name" "$(cat "$PIDS/$name.pid" 2>/dev/null || echo -)" "$(alive "$name" && echo up || echo down)" \
        "$(http_ok "$probe" && echo "ready, $probe" || echo "not ready, $probe")"
    done
  fi
  line haproxy "$(cat "$PIDS/haproxy.pid" 2>/dev/null || echo -)" "$(alive haproxy && echo up || echo down)" \
    "$(haproxy_all_up && echo "all API servers UP, https://127.0.0.1:$FRONT_PORT/" || echo "not every API server UP")"
  say ""
  say "Key figures (each process's /metrics, counted since it started)"
  for i in $(seq 1 "$API_COUNT"); do
    say "  api$i: $(figures "http://127.0.0.1:$(api_port "$i")/metrics")"
  done
  if has_scheduler; then
    for n in $(seq 1 "$SCHEDULER_COUNT"); do
      say "  $(scheduler_name "$n"): $(figures "http://127.0.0.1:$(scheduler_port "$n")/metrics")"
    done
  fi
}

# One line from a host's Prometheus text: bookings by outcome, requests shed by reason, outbox depth,
# flush lag, SMS sent / retried / dead-lettered. Loopback callers need no key (Slots.Hosting MetricsEndpoint).
figures() {
  curl -fsS --max-time 2 "$1" 2>/dev/null | awk '
    function label(line, name,   m) { return match(line, name "=\"[^\"]*\"") ? substr(line, RSTART + length(name) + 2, RLENGTH - length(name) - 3) : "" }
    /^slots_api_reservations_total\{/ && label($0, "operation") == "reserve" { booked[label($0, "outcome")] += $NF; any = 1 }
    /^slots_api_shed_total\{/ { shed[label($0, "reason")] += $NF; any = 1 }
    /^slots_sms_outbox_depth\{/ { outbox = $NF; any = 1 }
    /^slots_scheduler_flush_lag_seconds\{/ { lag = $NF; any = 1 }
    /^slots_sms_sent_total\{/ { sent += $NF; any = 1 }
    /^slots_sms_retried_total\{/ { retried += $NF }
    /^slots_sms_dead_lettered_total\{/ { dead += $NF }
    END {
      if (!any) { print "no metrics"; exit }
      out = "bookings"; n = 0
      for (o in booked) { out = out " " o "=" booked[o]; n++ }
      if (!n) out = out " none"
      out = out "; shed"; n = 0
      for (r in shed) { out = out " " r "=" shed[r]; n++ }
      if (!n) out = out " none"
      if (outbox != "") out = out "; outbox " outbox
      if (lag != "") out = out "; flush lag " lag " s"
      out = out "; sms sent=" sent + 0 " retried=" retried + 0 " dead=" dead + 0
      print out
    }'
}

# The process ids of one part: PostgreSQL's postmaster, the RabbitMQ node (the script and its Erlang VM), HAProxy's
# master and its workers, or a PID file's.
pids() {
  case "$1" in
    postgres)
      local folder; folder="$(pg_folder)"
      [ -f "$folder/data/postmaster.pid" ] || return 1
      local pid; pid="$(head -n 1 "$folder/data/postmaster.pid")"
      echo "$pid" $(pgrep -P "$pid" 2>/dev/null)
      ;;
    rabbitmq)
      alive rabbitmq || return 1
      local pid; pid="$(cat "$PIDS/rabbitmq.pid")"
      echo "$pid" $(pgrep -P "$pid" 2>/dev/null) $(pgrep -f "beam.smp.*$RABBIT_NODE" 2>/dev/null)
      ;;
    haproxy)
      alive haproxy || return 1
      local pid; pid="$(cat "$PIDS/haproxy.pid")"
      echo "$pid" $(pgrep -P "$pid" 2>/dev/null)
      ;;
    *)
      alive "$1" && cat "$PIDS/$1.pid"
      ;;
  esac
}

# fast: PostgreSQL rolls back open transactions and stops; immediate: it stops at once and recovers from its WAL at the next start.
pg_stop() {
  local folder; folder="$(pg_folder)"
  [ -f "$folder/data/postmaster.pid" ] || return 0
  as_pg "$(pg_bin)/pg_ctl" -D "$folder/data" -m "$1" -w -t 30 stop >/dev/null
}

# Starts one part again and waits for its own health only: the chaos soak's heal, faster than `up`.
start_part() {
  mkdir -p "$LOGS" "$PIDS"
  case "$1" in
    postgres) pg_up ;;
    rabbitmq) rabbit_up; wait_for rabbitmq port_busy "$AMQP_PORT" ;;
    haproxy) haproxy_up; wait_for haproxy port_busy "$FRONT_PORT" ;;
    api*) api_up "${1#api}"; wait_for "$1" http_ok "http://127.0.0.1:$(api_port "${1#api}")/health/ready" ;;
    scheduler*)
      local n="${1#scheduler}"; n="${n:-1}"
      scheduler_up "$n"; wait_for "$1" http_ok "http://127.0.0.1:$(scheduler_port "$n")/health/ready" ;;
    *) say "unknown part $1" >&2; return 2 ;;
  esac
}

# The high-availability form: asked for with `up --ha` (or SLOTS_STACK_HA=1), remembered in the state folder.
if [ "${1:-}" = up ] && [ "${2:-}" = --ha ]; then SLOTS_STACK_HA=1; fi
if [ "${SLOTS_STACK_HA:-0}" = 1 ] || [ -f "$STATE/ha" ]; then
  # shellcheck source=scripts/stack-ha.sh
  . "$ROOT/scripts/stack-ha.sh"
  # shellcheck source=scripts/stack-backup.sh
  . "$ROOT/scripts/stack-backup.sh"
  ha_connections
  case "${1:-}" in
    up) ha_up ;;
    start) ha_start_part "${2:?usage: stack.sh start PART}" ;;
    stop) stop_pid "${2:?usage: stack.sh stop PART}" ;;
    pids) ha_pids "${2:?usage: stack.sh pids PART}" ;;
    reload-cert) reload_cert "$([ "${2:-}" = --renew ] && echo 1 || echo 0)" haproxy1 "$FRONT_PORT" haproxy2 "$FRONT2_PORT" ;;
    primary) pg_primary_name ;;
    wipe) ha_wipe ;;
    down) ha_down ;;
    status) ha_status ;;
    backup) shift; ha_backup "$@" ;;
    restore) shift; ha_restore "$@" ;;
    *) say "usage: ./slots stack up [--ha]|down|status|reload-cert [--renew]|backup [--type full|incr]|restore --to TIME"; exit 2 ;;
  esac
  exit
fi

case "${1:-}" in
  up) up ;;
  start) start_part "${2:?usage: stack.sh start PART}" ;;
  pids) pids "${2:?usage: stack.sh pids PART}" ;;
  reload-cert) reload_cert "$([ "${2:-}" = --renew ] && echo 1 || echo 0)" haproxy "$FRONT_PORT" ;;
  pg-stop) pg_stop "${2:-fast}" ;;
  wipe) down; rm -rf "$STATE" "$(pg_folder)" ;;   # a fresh stack next time: data, logs, SMS sink
  down) down ;;
  status) status ;;
  backup|restore) say "Backups and point-in-time restore are on the high-availability stack: ./slots stack up --ha (docs/reliability.md)." >&2; exit 2 ;;
  *) say "usage: ./slots stack up|down|status|reload-cert [--renew]"; exit 2 ;;
esac
