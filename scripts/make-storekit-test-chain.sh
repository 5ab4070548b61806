#!/usr/bin/env bash
# Makes the StoreKit TEST certificate chains the demo signer and the server tests use, with the
# system openssl: root → intermediate → leaf, EC P-256, with Apple's marker OIDs on the leaf
# (1.2.840.113635.100.6.11.1) and the intermediate (1.2.840.113635.100.6.2.1), valid for a century.
# Three chains: `trusted` (the demo server's and tests' root), `untrusted` (another root, so the
# tests can show a chain that does not end at our root is refused) and `ocsp-unreachable` (its
# intermediate and leaf name an OCSP responder on a closed loopback port, so the tests can show
# what a production server, which checks revocation online, does when Apple's OCSP is down). Demo and test keys only:
# production verifies with Apple's own roots (APPLE_ROOT_CERTS_DIR) and never loads these.
#
# Usage: scripts/make-storekit-test-chain.sh   (rewrites apps/server/src/demo/test-chain/)
set -euo pipefail
cd "$(dirname "$0")/.."
out=apps/server/src/demo/test-chain
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
days=36500

make_chain() {
  local name=$1 dir=$2 ocsp=${3:-}
  local aia=''
  if [ -n "$ocsp" ]; then aia="authorityInfoAccess = OCSP;URI:$ocsp"; fi
  mkdir -p "$dir"
  cat >"$work/ext.cnf" <<CNF
[root]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[intermediate]
basicConstraints = critical, CA:true, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
1.2.840.113635.100.6.2.1 = ASN1:NULL
$aia
[leaf]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
1.2.840.113635.100.6.11.1 = ASN1:NULL
$aia
CNF
  for part in root intermediate leaf; do
    openssl ecparam -name prime256v1 -genkey -noout -out "$work/$part.key"
  done
  openssl req -new -x509 -key "$work/root.key" -sha256 -days "$days" \
    -subj "/CN=guquan StoreKit TEST Root ($name)/O=guquan demo" \
    -extensions root -config "$work/ext.cnf" -out "$work/root.pem"
  for pair in intermediate:root leaf:intermediate; do
    local part=${pair%%:*} issuer=${pair##*:}
    openssl req -new -key "$work/$part.key" -subj "/CN=guquan StoreKit TEST ${part} ($name)/O=guquan demo" \
      -out "$work/$part.csr"
    openssl x509 -req -in "$work/$part.csr" -CA "$work/$issuer.pem" -CAkey "$work/$issuer.key" \
      -CAcreateserial -sha256 -days "$days" -extfile "$work/ext.cnf" -extensions "$part" \
      -out "$work/$part.pem"
  done
  cp "$work/root.pem" "$work/intermediate.pem" "$work/leaf.pem" "$dir/"
  openssl pkcs8 -topk8 -nocrypt -in "$work/leaf.key" -out "$dir/leaf-key.pem"
}

make_chain trusted "$out"
make_chain untrusted "$out/untrusted"
# Port 9 (discard) on loopback: nothing listens there, the connection is refused at once.
make_chain ocsp-unreachable "$out/ocsp-unreachable" http://127.0.0.1:9/
echo "Wrote the StoreKit test chains to $out"
