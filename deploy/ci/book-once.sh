#!/usr/bin/env bash
# Books one seat through a running Slots, the way a person would: the first place, its first free
# slot this week, POST /api/reservations, and the booking read back with its code.
#   deploy/ci/book-once.sh https://localhost:8443        (needs curl and jq)
# SLOTS_BOOK_NATIONAL_ID books as another person (one active booking per person).
# SLOTS_BOOK_CA: the CA file to trust for HTTPS (the stack's local CA); unset, the system's roots.
# Used by .github/workflows/ci.yml against docker-compose.yml; works against `./slots run` too.
set -euo pipefail
base="${1:-https://localhost:8443}"
wait_s="${SLOTS_BOOK_WAIT_S:-300}"
ca="${SLOTS_BOOK_CA:-}"
curl() { command curl ${ca:+--cacert "$ca"} "$@"; }

# Ready means an API answers through the proxy and its database does.
for _ in $(seq "$wait_s"); do
  curl -fsS -o /dev/null "$base/health/ready" 2>/dev/null && break
  sleep 1
done
curl -fsS -o /dev/null "$base/health/ready" || { echo "no ready answer from $base within ${wait_s}s" >&2; exit 1; }

place="$(curl -fsS "$base/api/places?pageSize=1" | jq -er '.items[0].id')"
slot="$(curl -fsS "$base/api/places/$place/availability" |
  jq -ec 'first(.days[] as $d | $d.slots[] | select(.free > 0) | {day: $d.day, time})')"
day="$(jq -r .day <<<"$slot")"; time="$(jq -r .time <<<"$slot")"
echo "booking place $place, $day $time"

body="$(jq -nc --argjson place "$place" --arg day "$day" --arg time "$time" --arg person "${SLOTS_BOOK_NATIONAL_ID:-7803121234}" \
  '{placeId: $place, day: $day, time: $time, name: "CI Booking", phone: "0905 123 456", nationalId: $person, language: "en"}')"
answer="$(curl -sS -w '\n%{http_code}' -H 'Content-Type: application/json' \
  -H "Idempotency-Key: ci-$(date +%s)-$RANDOM" -d "$body" "$base/api/reservations")"
status="$(tail -n1 <<<"$answer")"; reservation="$(sed '$d' <<<"$answer")"
if [ "$status" != 201 ]; then
  echo "POST /api/reservations answered $status: $reservation" >&2
  exit 1
fi
code="$(jq -er .code <<<"$reservation")"
curl -fsS -H 'Slots-Phone: 0905 123 456' "$base/api/reservations/$code" | jq -e --arg code "$code" '.code == $code' >/dev/null
echo "booked and read back: $code"
