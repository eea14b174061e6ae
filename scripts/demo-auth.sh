#!/usr/bin/env bash
# The homologation flow with OAuth2 client credentials and a client certificate (mTLS),
# against the built-in sandbox on this machine (docs/auth.md):
#   1. openssl makes a private CA, a server certificate for 127.0.0.1 and a client
#      certificate, in a temporary folder;
#   2. the sandbox serves HTTPS, demands a client certificate signed by that CA, and plays
#      a token endpoint with short-lived tokens;
#   3. a throwaway profile is set up as an operator would: base URL, client certificate,
#      CA, `auth login --client-credentials` (the secret through stdin, never in argv);
#   4. `auth status`, `doctor` and `submit` run against it.
# Run from a checkout after `npm run build` (or set ECONSIG to the command to run).
# Everything it made is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
ECONSIG=${ECONSIG:-"node bin/econsig.js"}
command -v openssl >/dev/null || { echo "openssl is needed (Debian: apt-get install openssl)" >&2; exit 2; }

work=$(mktemp -d)
sandbox_pid=
cleanup() {
  [ -n "$sandbox_pid" ] && kill "$sandbox_pid" 2>/dev/null && wait "$sandbox_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
export ECONSIG_HOME="$work/home"

step() { printf '\n\033[1m== %s\033[0m\n' "$*" >&2; }

step "certificates (openssl, in $work)"
ssl() { openssl "$@" 2>/dev/null; }
ssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/ca.key" -out "$work/ca.pem" -days 2 -subj "/CN=Demo homologation CA"
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' > "$work/server.ext"
ssl req -newkey rsa:2048 -nodes -keyout "$work/server.key" -out "$work/server.csr" -subj "/CN=127.0.0.1"
ssl x509 -req -in "$work/server.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 2 -extfile "$work/server.ext" -out "$work/server.pem"
printf 'extendedKeyUsage=clientAuth\n' > "$work/client.ext"
ssl req -newkey rsa:2048 -nodes -keyout "$work/client.key" -out "$work/client.csr" -subj "/O=Demo Bank/CN=econsig demo client"
ssl x509 -req -in "$work/client.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 2 -extfile "$work/client.ext" -out "$work/client.pem"
chmod 600 "$work"/*.key
ls "$work"/*.pem >&2

step "sandbox: HTTPS, client certificate required, OAuth2 token endpoint (tokens live 60 s)"
$ECONSIG sandbox --port 0 --delay 1 --oauth --token-ttl 60 \
  --tls-cert "$work/server.pem" --tls-key "$work/server.key" --client-ca "$work/ca.pem" \
  > "$work/sandbox.out" 2> "$work/sandbox.err" &
sandbox_pid=$!
for _ in $(seq 50); do [ -s "$work/sandbox.out" ] && break; sleep 0.1; done
# First line: econsig sandbox listening on URL token_url URL client_id ID client_secret SECRET
read -r _ _ _ _ base_url _ token_url _ client_id _ client_secret < "$work/sandbox.out"
echo "base URL $base_url, token endpoint $token_url, client $client_id" >&2

step "profile 'demo': base URL, client certificate, CA, client credentials"
$ECONSIG config set base-url "$base_url" --profile demo
$ECONSIG config set tls.cert "$work/client.pem" --profile demo
$ECONSIG config set tls.key "$work/client.key" --profile demo
$ECONSIG config set tls.ca "$work/ca.pem" --profile demo
printf '%s' "$client_secret" | $ECONSIG auth login --client-credentials --token-url "$token_url" --client-id "$client_id" --with-secret --profile demo

step "econsig auth status --profile demo"
$ECONSIG auth status --profile demo

step "econsig doctor --profile demo"
$ECONSIG doctor --profile demo

step "econsig submit fixtures/valid/bank-only.json --profile demo"
$ECONSIG submit fixtures/valid/bank-only.json --profile demo --yes

step "what the sandbox saw"
cat "$work/sandbox.out" >&2
