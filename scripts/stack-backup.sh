# Backups and point-in-time restore of the high-availability stack with pgBackRest (Debian's package),
# sourced by scripts/stack-ha.sh. What it guarantees, the figures and the commands: docs/reliability.md.
#   ./slots stack backup [--type full|incr]   a backup from the primary into the repository
#   ./slots stack restore --to "TIME"         the cluster as it was at TIME (PostgreSQL's timestamptz syntax)
# Every node archives its WAL while it is primary (archive_command in its patroni.yml), so the repository
# holds what a restore to any moment after the first backup needs.

BACKUP_REPO="${SLOTS_BACKUP_REPO:-}"              # the repository; empty: $(pg_folder)/backup
BACKUP_STANZA="${SLOTS_BACKUP_STANZA:-}"          # empty: slots-<hash of the state folder>, one per stack
ARCHIVE_TIMEOUT="${SLOTS_ARCHIVE_TIMEOUT:-30s}"   # the RPO bound when every node is lost (docs/reliability.md)
BACKUP_RETENTION_FULL="${SLOTS_BACKUP_RETENTION_FULL:-2}"
# Outbox ids a restore skips, so that no message id used after the restore point is handed out again:
# the SMS gateway remembers ids it has sent (Idempotency-Key) and would drop a new message under an old id.
OUTBOX_ID_GAP="${SLOTS_OUTBOX_ID_GAP:-1000000000}"

backup_repo() { echo "${BACKUP_REPO:-$(pg_folder)/backup}"; }
backup_stanza() { echo "${BACKUP_STANZA:-slots-$(printf '%s' "$STATE" | md5sum | cut -c1-8)}"; }
backup_config() { echo "$(pg_folder)/pgbackrest.conf"; }

# The configuration every pgbackrest call of this stack reads; the node's own data folder is given on
# the command line (pg1-path), so each node archives its own WAL and a backup reads the primary's.
backup_write_config() {
  local folder; folder="$(pg_folder)"
  mkdir -p "$(backup_repo)" "$folder/pgbackrest-log" "$folder/pgbackrest-lock"
  cat >"$(backup_config)" <<EOF
# Written by scripts/stack-backup.sh.
[global]
repo1-path=$(backup_repo)
repo1-retention-full=$BACKUP_RETENTION_FULL
log-path=$folder/pgbackrest-log
lock-path=$folder/pgbackrest-lock
log-level-console=warn
log-level-file=info
compress-type=lz4
process-max=2
start-fast=y
archive-timeout=60
EOF
  if [ "$(id -u)" -eq 0 ]; then chown -R postgres:postgres "$(backup_repo)" "$folder/pgbackrest-log" "$folder/pgbackrest-lock" "$(backup_config)"; fi
}

# The archive_command of node n, for its patroni.yml.
backup_archive_command() {
  local dir; dir="$(pg_folder)/pg$1"
  echo "pgbackrest --config=$(backup_config) --stanza=$(backup_stanza) --pg1-path=$dir/data archive-push %p"
}

# pgbackrest as the postgres user, on the repository alone (info).
pgbr_repo() { as_pg pgbackrest --config="$(backup_config)" --stanza="$(backup_stanza)" "$@"; }

# pgbackrest as the postgres user, against node n's data folder and server.
pgbr() {
  local n="$1" dir; shift; dir="$(pg_folder)/pg$n"
  as_pg pgbackrest --config="$(backup_config)" --stanza="$(backup_stanza)" \
    --pg1-path="$dir/data" --pg1-port="$(pg_node_port "$n")" --pg1-socket-path="$dir" "$@"
}

# Once the cluster runs: the stanza (idempotent), then a check that WAL reaches the repository.
backup_init() {
  local leader; leader="$(pg_primary_name)"
  [ -n "$leader" ] || { say "  pgbackrest: no primary to create the stanza on" >&2; return 1; }
  pgbr "${leader#pg}" stanza-create >>"$LOGS/pgbackrest.log" 2>&1 \
    || { say "  pgbackrest: stanza-create failed; see $LOGS/pgbackrest.log" >&2; return 1; }
  say "  pgbackrest: stanza $(backup_stanza), repository $(backup_repo), WAL archived every $ARCHIVE_TIMEOUT at the latest"
}

ha_backup() {
  local type=full
  while [ $# -gt 0 ]; do
    case "$1" in
      --type) type="${2:-}"; shift 2 ;;
      *) say "usage: ./slots stack backup [--type full|incr]" >&2; exit 2 ;;
    esac
  done
  case "$type" in full|incr|diff) ;; *) say "--type is full or incr (or diff)" >&2; exit 2 ;; esac
  local leader; leader="$(pg_primary_name)"
  [ -n "$leader" ] || { say "No PostgreSQL primary: is the HA stack up? (./slots stack status)" >&2; exit 1; }
  local start=$SECONDS
  pgbr "${leader#pg}" backup --type="$type" >>"$LOGS/pgbackrest.log" 2>&1 \
    || { say "Backup failed; see $LOGS/pgbackrest.log and $(pg_folder)/pgbackrest-log/" >&2; exit 1; }
  say "Backup ($type) from $leader done in $((SECONDS - start)) s into $(backup_repo), stanza $(backup_stanza)."
  pgbr_repo info --output=text 2>/dev/null | sed 's/^/  /' | tail -n 8 || true
}

# Patroni's record of the cluster in etcd goes, so the restored node starts it again with its own
# system identifier and history (Patroni takes a non-empty data folder as the new cluster then).
backup_forget_cluster() {
  local dir; dir="$(pg_folder)/pg1"
  printf 'slots\nYes I am aware\n' | patronictl -c "$dir/patroni.yml" remove slots >>"$LOGS/pgbackrest.log" 2>&1
}

ha_restore() {
  local target=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --to) target="${2:-}"; shift 2 ;;
      *) say "usage: ./slots stack restore --to \"2026-11-27 02:10:00+00\"" >&2; exit 2 ;;
    esac
  done
  [ -n "$target" ] || { say "usage: ./slots stack restore --to \"2026-11-27 02:10:00+00\" (a moment after the first backup)" >&2; exit 2; }
  local clock=$SECONDS leader n
  leader="$(pg_primary_name 2>/dev/null || true)"
  leader="${leader:-${SLOTS_RESTORE_NODE:-pg1}}"
  local dir; dir="$(pg_folder)/$leader"
  say "Restoring the cluster to $target on $leader ($dir/data)"
  # The WAL written up to now goes to the repository first (a switch, then a wait for its archiving):
  # a target a moment ago needs the segment still open.
  if pgbr "${leader#pg}" check >>"$LOGS/pgbackrest.log" 2>&1; then
    say "  the latest WAL is in the repository"
  else
    say "  the primary could not switch WAL (is it down?): the restore reaches what was archived" >&2
  fi
  # Nothing writes while the data go back: the application first, then the replicas, the leader last.
  for name in $(cd "$PIDS" && ls scheduler*.pid api*.pid 2>/dev/null | sed 's/\.pid$//'); do stop_pid "$name"; done
  for n in $(seq 1 "$PG_NODES"); do [ "pg$n" = "$leader" ] || stop_pid "pg$n"; done
  stop_pid "$leader"
  for n in $(seq 1 "$PG_NODES"); do
    if [ -f "$(pg_folder)/pg$n/data/postmaster.pid" ]; then as_pg "$(pg_bin)/pg_ctl" -D "$(pg_folder)/pg$n/data" -m fast -w stop >/dev/null 2>&1 || true; fi
  done
  backup_forget_cluster || { say "  patronictl remove failed; see $LOGS/pgbackrest.log" >&2; exit 1; }
  local stopped=$SECONDS
  pgbr_repo --pg1-path="$dir/data" restore --delta --type=time --target="$target" --target-action=promote >>"$LOGS/pgbackrest.log" 2>&1 \
    || { say "  pgbackrest restore failed; see $LOGS/pgbackrest.log" >&2; exit 1; }
  local restored=$SECONDS
  say "  files restored in $((restored - stopped)) s; replaying WAL to $target"
  # PostgreSQL replays to the target and promotes; then the recovery settings pgbackrest wrote go, so
  # that neither this node's next start nor the replicas copied from it recover toward the target again.
  local recovery_log="$dir/recovery.log"   # the postgres user writes it: $LOGS may be closed to it
  # Without a synchronous standby name: the restored configuration still names the old one, and a commit here would wait for it.
  as_pg "$(pg_bin)/pg_ctl" -D "$dir/data" -l "$recovery_log" -o "-c synchronous_standby_names=''" -w -t 3600 start >/dev/null \
    || { say "  recovery failed; see $recovery_log" >&2; exit 1; }
  ln -sfn "$recovery_log" "$LOGS/$leader-recovery.log"
  local sql=(psql -h "$dir" -p "$(pg_node_port "${leader#pg}")" -U postgres -d postgres -tAq)
  until [ "$("${sql[@]}" -c 'SELECT pg_is_in_recovery()' 2>/dev/null)" = f ]; do
    if ! as_pg "$(pg_bin)/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
      say "  recovery stopped; see $recovery_log:" >&2
      tail -n 5 "$recovery_log" | sed 's/^/    /' >&2
      exit 1
    fi
    sleep 0.5
  done
  "${sql[@]}" -c 'ALTER SYSTEM RESET restore_command' -c 'ALTER SYSTEM RESET recovery_target_time' -c 'ALTER SYSTEM RESET recovery_target_action'
  # Outbox ids issued after the target would be issued again, for other messages: skip past them.
  "${sql[@]}" -d slots -c "SELECT setval(pg_get_serial_sequence('outbox', 'id'), GREATEST((SELECT last_value FROM outbox_id_seq), (SELECT coalesce(max(id), 0) FROM outbox)) + $OUTBOX_ID_GAP)" >/dev/null \
    || say "  no outbox in database slots: ids left as they are" >&2
  as_pg "$(pg_bin)/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
  local recovered=$SECONDS
  say "  WAL replayed and promoted in $((recovered - restored)) s"
  # The leader first, alone, with its restored data; the replicas copy it afresh (their data lie past the target).
  pg_node_up "${leader#pg}"
  wait_node "$leader" "$leader (restored leader)" pg_node_healthy "${leader#pg}"
  wait_for "a primary behind HAProxy" haproxy_node_has_primary 1
  local writable=$SECONDS
  for n in $(seq 1 "$PG_NODES"); do
    [ "pg$n" = "$leader" ] && continue
    rm -rf "$(pg_folder)/pg$n/data"
    pg_node_up "$n"
  done
  for n in $(seq 1 "$API_COUNT"); do api_up "$n"; done
  for n in $(seq 1 "$API_COUNT"); do wait_for "api$n" http_ok "http://127.0.0.1:$(api_port "$n")/health/ready"; done
  for n in $(seq 1 "$SCHEDULER_COUNT"); do scheduler_up "$n"; done
  for n in $(seq 1 "$SCHEDULER_COUNT"); do wait_for "$(scheduler_name "$n")" http_ok "http://127.0.0.1:$(scheduler_port "$n")/health/ready"; done
  local serving=$SECONDS
  wait_for "PostgreSQL (a leader and a synchronous standby)" pg_cluster_ready
  say "Restored to $target: writable after $((writable - clock)) s, serving after $((serving - clock)) s, synchronous standby after $((SECONDS - clock)) s."
  say "Take a full backup now (./slots stack backup): the restored cluster is on a new timeline."
}

backup_enabled() { command -v pgbackrest >/dev/null 2>&1; }

# Node n's archiving settings, as lines of patroni.yml's local postgresql.parameters (nothing without pgbackrest).
backup_parameters() {
  backup_enabled || return 0
  echo "    archive_mode: \"on\""
  echo "    archive_command: '$(backup_archive_command "$1")'"
  echo "    archive_timeout: $ARCHIVE_TIMEOUT"
}
