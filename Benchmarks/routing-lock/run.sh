#!/usr/bin/env bash
# Benchmarks/routing-lock/run.sh [DEVICES]
#
# Shows the order the engine relies on after a deletion (NetlinkEngine.settle): a request the kernel
# handles under the routing lock (RTNL) waits for an operation that holds it, a route lookup does
# not. One namespace holds DEVICES (600) veth pairs and is deleted, which unregisters them all
# under the lock for a long while; meanwhile request-latency, in another namespace, times both
# requests. Expect RTM_GETQDISC's longest wait near the deletion's length (tens to hundreds of ms)
# and RTM_GETROUTE's at its idle value. Needs root and gcc; both namespaces (nrx-lock-PID-*) are
# deleted on every exit path. The host's network is not touched.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DEVICES=${1:-600}
[[ $(id -u) == 0 ]] || { echo "needs root (namespaces)" >&2; exit 2; }
BIN=$(mktemp /tmp/nrx-lock-XXXXXX)
BATCH=$(mktemp /tmp/nrx-lock-batch-XXXXXX)
big=nrx-lock-$$-big
probe=nrx-lock-$$-probe
cleanup() { ip netns del "$probe" 2>/dev/null || true; ip netns del "$big" 2>/dev/null || true; rm -f "$BIN" "$BATCH"; }
trap cleanup EXIT INT TERM
gcc -O2 -o "$BIN" "$HERE/request-latency.c"
ip netns add "$big"
ip netns add "$probe"
ip -n "$probe" link set lo up
for i in $(seq 1 "$DEVICES"); do echo "link add a$i type veth peer name b$i"; done > "$BATCH"
ip -n "$big" -batch "$BATCH"
echo "idle:"
ip netns exec "$probe" "$BIN" 1
(sleep 0.3; ip netns del "$big") &
echo "while a namespace of $DEVICES veth pairs is deleted:"
ip netns exec "$probe" "$BIN" 4
wait
