#!/usr/bin/env bash
# The certificate HAProxy serves (haproxy.cfg's SLOTS_TLS_CERT: one PEM file, the certificate chain
# first and its private key after it). Where no real certificate is configured, a local CA issues one.
#   scripts/tls.sh local DIR           DIR/ca.crt and DIR/ca.key once (a CA of this machine only), and
#                                      DIR/server.pem from it; both kept while valid, so a second call
#                                      changes nothing. A server.pem without DIR/ca.key is someone's real
#                                      certificate: it is never touched.
#   scripts/tls.sh renew DIR           a new server.pem from the same CA (a new serial), as a renewal gives
#   scripts/tls.sh serial PEM          the serial number of the first certificate in PEM
#   scripts/tls.sh served HOST:PORT    the serial number of the certificate served there
# Used by ./slots stack (tools/Slots.Topology), the compose file's tls service and the test fixtures (tests/Slots.Testing).
#   SLOTS_TLS_HOSTS (localhost 127.0.0.1)  the names and addresses the local certificate is valid for
#   SLOTS_TLS_DAYS (90)                    how long it is valid: a public CA's ACME certificate lives 90 days
#   SLOTS_TLS_OWNER (unset)                uid:gid given the files (compose: the haproxy image's user)
#   SLOTS_TLS_CRL_URL (unset)              where the local CA's revocation list is published (haproxy.cfg serves
#                                          DIR/ca.crl on its plain-HTTP listener at /slots-local-ca.crl): written
#                                          into the certificate, so a client can check it was not revoked
set -euo pipefail

HOSTS="${SLOTS_TLS_HOSTS:-localhost 127.0.0.1}"
DAYS="${SLOTS_TLS_DAYS:-90}"

# ECDSA P-256 keys, the first choice of Mozilla's intermediate profile: strong and cheap to handshake.
new_key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

# 128 random bits, as public CAs make serials: a renewal never repeats one.
new_serial() { echo "0x$(openssl rand -hex 16)"; }

ca() {
  local dir="$1"
  [ -f "$dir/ca.crt" ] && [ -f "$dir/ca.key" ] && return
  new_key "$dir/ca.key"
  mkdir -p "$dir/ca.db"
  : >"$dir/ca.db/index.txt"
  echo 01 >"$dir/ca.db/crlnumber"
  cat >"$dir/ca.cnf" <<'EOF'
[req]
distinguished_name = dn
prompt = no
[dn]
CN = Slots local CA
[ca]
basicConstraints = critical, CA:true, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
EOF
  openssl req -new -x509 -config "$dir/ca.cnf" -extensions ca -key "$dir/ca.key" -sha256 -days 3650 \
    -set_serial "$(new_serial)" -out "$dir/ca.crt"
  rm -f "$dir/ca.cnf"
}

# The CA's revocation list, DER as a CRL distribution point serves it: empty (nothing revoked) until
# someone runs `openssl ca -revoke`, signed again at each issue so it never goes stale before the certificate.
crl() {
  local dir="$1" work="$2"
  cat >"$work/crl.cnf" <<EOF
[ca]
default_ca = local
[local]
database = $dir/ca.db/index.txt
crlnumber = $dir/ca.db/crlnumber
default_md = sha256
default_crl_days = $DAYS
EOF
  openssl ca -gencrl -config "$work/crl.cnf" -keyfile "$dir/ca.key" -cert "$dir/ca.crt" -out "$work/ca.crl.pem" 2>/dev/null
  openssl crl -in "$work/ca.crl.pem" -outform DER -out "$work/ca.crl"
  chmod 644 "$work/ca.crl"
  [ -z "${SLOTS_TLS_OWNER:-}" ] || chown "$SLOTS_TLS_OWNER" "$work/ca.crl"
  mv -f "$work/ca.crl" "$dir/ca.crl"
}

# DNS:localhost, IP:127.0.0.1, ... from SLOTS_TLS_HOSTS.
alt_names() {
  local names=() host
  for host in $HOSTS; do
    if [[ "$host" =~ ^[0-9.]+$ || "$host" == *:* ]]; then names+=("IP:$host"); else names+=("DNS:$host"); fi
  done
  (IFS=,; echo "${names[*]}")
}

issue() {
  local dir="$1" work
  work="$(mktemp -d "$dir/.issue.XXXXXX")"
  new_key "$work/server.key"
  openssl req -new -key "$work/server.key" -subj "/CN=${HOSTS%% *}" -out "$work/server.csr"
  cat >"$work/server.ext" <<EOF
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = $(alt_names)
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
EOF
  [ -z "${SLOTS_TLS_CRL_URL:-}" ] || echo "crlDistributionPoints = URI:$SLOTS_TLS_CRL_URL" >>"$work/server.ext"
  [ ! -d "$dir/ca.db" ] || crl "$dir" "$work"
  openssl x509 -req -in "$work/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -set_serial "$(new_serial)" \
    -sha256 -days "$DAYS" -extfile "$work/server.ext" -out "$work/server.crt" 2>/dev/null
  cat "$work/server.crt" "$work/server.key" >"$work/server.pem"
  [ -z "${SLOTS_TLS_OWNER:-}" ] || chown "$SLOTS_TLS_OWNER" "$work/server.pem"
  # One rename: a HAProxy reloading at this moment reads the old file or the new one, never half of one.
  mv -f "$work/server.pem" "$dir/server.pem"
  rm -rf "$work"
}

case "${1:-}" in
  local)
    dir="${2:?usage: tls.sh local DIR}"
    mkdir -p "$dir"
    umask 077
    if [ -f "$dir/server.pem" ] && [ ! -f "$dir/ca.key" ]; then
      echo "$dir/server.pem: kept (not issued by the local CA)"
      exit 0
    fi
    ca "$dir"
    # Kept while it is valid for another day; a stack left for months gets a fresh one at its next start.
    if [ -f "$dir/server.pem" ] && openssl x509 -in "$dir/server.pem" -noout -checkend 86400 >/dev/null; then
      exit 0
    fi
    issue "$dir"
    chmod 644 "$dir/ca.crt"
    echo "$dir/server.pem: issued by the local CA $dir/ca.crt for $(alt_names)"
    ;;
  renew)
    dir="${2:?usage: tls.sh renew DIR}"
    [ -f "$dir/ca.key" ] || { echo "$dir has no local CA (scripts/tls.sh local $dir makes one)." >&2; exit 1; }
    umask 077
    issue "$dir"
    echo "$dir/server.pem: renewed, serial $(openssl x509 -in "$dir/server.pem" -noout -serial | cut -d= -f2)"
    ;;
  serial)
    openssl x509 -in "${2:?usage: tls.sh serial PEM}" -noout -serial | cut -d= -f2
    ;;
  served)
    target="${2:?usage: tls.sh served HOST:PORT}"
    host="${target%:*}"
    sni=(); [[ "$host" =~ ^[0-9.]+$ ]] || sni=(-servername "$host")
    openssl s_client -connect "$target" "${sni[@]}" </dev/null 2>/dev/null \
      | openssl x509 -noout -serial | cut -d= -f2
    ;;
  *)
    echo "usage: scripts/tls.sh local DIR | renew DIR | serial PEM | served HOST:PORT" >&2
    exit 2
    ;;
esac
