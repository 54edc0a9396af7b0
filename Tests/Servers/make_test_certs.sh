#!/usr/bin/env bash
# Makes the certificates of the https:// probe tests, with the openssl command, into DIR:
#   ca.pem / ca.key              a throwaway test CA (the probe trusts it only with --probe-ca)
#   good.pem / good.key          signed by the CA for NAME and ADDRESS, valid now
#   wrongname.pem / .key         signed by the CA for other.NAME only
#   expired.pem / .key           signed by the CA for NAME and ADDRESS, expired in 2021
#   selfsigned.pem / .key        for NAME and ADDRESS, signed by itself
#     make_test_certs.sh DIR NAME ADDRESS
set -euo pipefail
dir=$1 name=$2 address=$3
cd "$dir"
key() { openssl ecparam -name prime256v1 -genkey -noout -out "$1.key" 2>/dev/null; }
request() { openssl req -new -key "$1.key" -subj "/CN=$2" -out "$1.csr"; }
printf 'subjectAltName=DNS:%s,IP:%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' "$name" "$address" >server.ext
printf 'subjectAltName=DNS:other.%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' "$name" >other.ext

key ca
openssl req -new -x509 -key ca.key -subj "/CN=nrx test CA" -days 2 -out ca.pem \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
for cert in good wrongname; do
    key $cert
    request $cert "$name"
    ext=server.ext
    [[ $cert == wrongname ]] && ext=other.ext
    openssl x509 -req -in $cert.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile $ext -out $cert.pem 2>/dev/null
done

# Expired: x509 -req cannot date a certificate in the past before OpenSSL 3.4; `openssl ca` can.
key expired
request expired "$name"
mkdir -p ca-db && : >ca-db/index.txt && echo 01 >ca-db/serial
cat >ca.cnf <<CONF
[ca]
default_ca = test
[test]
database = $dir/ca-db/index.txt
serial = $dir/ca-db/serial
new_certs_dir = $dir/ca-db
default_md = sha256
policy = anything
unique_subject = no
[anything]
commonName = supplied
CONF
openssl ca -batch -notext -config ca.cnf -cert ca.pem -keyfile ca.key -in expired.csr -out expired.pem \
    -startdate 20200101000000Z -enddate 20210101000000Z -extfile server.ext 2>/dev/null

key selfsigned
openssl req -new -x509 -key selfsigned.key -subj "/CN=$name" -days 2 -out selfsigned.pem \
    -addext "subjectAltName=DNS:$name,IP:$address"
