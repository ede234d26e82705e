#!/bin/sh
# Refuses to start a node without its passwords (docker-compose.yml leaves them empty by default so
# the file interpolates without the ha profile), then becomes Patroni: its PID is the container's,
# so a stop reaches Patroni, which stops PostgreSQL cleanly.
set -eu
for name in PATRONI_NAME PATRONI_SUPERUSER_PASSWORD PATRONI_REPLICATION_PASSWORD PATRONI_REWIND_PASSWORD; do
  eval "value=\${$name:-}"
  if [ -z "$value" ]; then
    echo "$name is not set (docker-compose.yml's ha profile: set SLOTS_PG_PASSWORD)" >&2
    exit 1
  fi
done
exec patroni /etc/patroni/patroni.yml
