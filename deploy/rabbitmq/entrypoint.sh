#!/bin/sh
# The three nodes must share one Erlang cookie (the image's own cookie is random per container).
# It comes from SLOTS_ERLANG_COOKIE; without one the node refuses to start, so the file interpolates
# without the ha profile and no node runs with a guessable default.
set -eu
if [ -z "${SLOTS_ERLANG_COOKIE:-}" ]; then
  echo "SLOTS_ERLANG_COOKIE is not set: the ha profile's RabbitMQ nodes need one shared secret" >&2
  exit 1
fi
umask 077
printf '%s' "$SLOTS_ERLANG_COOKIE" >/var/lib/rabbitmq/.erlang.cookie
chown rabbitmq:rabbitmq /var/lib/rabbitmq/.erlang.cookie
chmod 400 /var/lib/rabbitmq/.erlang.cookie
exec docker-entrypoint.sh rabbitmq-server
