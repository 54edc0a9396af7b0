#!/usr/bin/env bash
# Benchmarks/slaac-idle.sh -- what an idle SLAAC host costs the engine (BENCHMARKS.md, "An idle SLAAC host").
#
#   sudo Benchmarks/slaac-idle.sh [path/to/reachability]      (default .build/debug/reachability)
#
# A client namespace learns its IPv6 default route from Router Advertisements that a router
# namespace sends (Tests/Servers/router_advertisement.py), and `reachability watch` watches the
# general path there, idle. Three windows, each counting the wake-ups of the engine's waiter thread
# by cause (strace of its `poll`: the event socket readable, the timer due, the wake pipe) and the
# kernel's messages (`ip monitor` on the client). The waiter's other descriptors (the namespace and
# resolver-configuration watches) are left out: on a shared machine other users' namespaces wake
# them, which is no cost of this scenario.
#
#   static   a default route with no expiry, added by hand: the floor
#   ra       a router advertising every INTERVAL s with router lifetime LIFETIME s and a /64 for
#            SLAAC: radvd's defaults scaled down (MaxRtrAdvInterval 600 s, AdvDefaultLifetime 1800 s)
#   gone     one advertisement, then the router is silent: the expiry, and the refresh watch after it
#
# Environment: WINDOW [120] seconds per window, INTERVAL [10], LIFETIME [30].
# Namespaces are nrx-bench-slaac-<pid>-*, deleted on every exit path. The host's network is untouched.
set -u  # no -e: a grep that finds nothing is an answer here, not a failure
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$ROOT/.build/debug/reachability}
WINDOW=${WINDOW:-120}; INTERVAL=${INTERVAL:-10}; LIFETIME=${LIFETIME:-30}
RA="$ROOT/Tests/Servers/router_advertisement.py"
C=nrx-bench-slaac-$$-c; R=nrx-bench-slaac-$$-r
WATCH=; MONITOR=
cleanup() {
    [ -n "$WATCH" ] && kill "$WATCH" 2>/dev/null || true
    [ -n "$MONITOR" ] && kill "$MONITOR" 2>/dev/null || true
    ip netns del "$C" 2>/dev/null || true; ip netns del "$R" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

setup() {
    cleanup; WATCH=; MONITOR=
    for n in "$C" "$R"; do ip netns add "$n"; ip -n "$n" link set lo up; done
    ip -n "$C" link add c0 type veth peer name r0 netns "$R"
    ip netns exec "$C" sysctl -qw net.ipv6.conf.all.forwarding=0 net.ipv6.conf.c0.accept_ra=2 net.ipv6.conf.c0.accept_dad=0
    ip netns exec "$R" sysctl -qw net.ipv6.conf.r0.accept_dad=0
    ip -n "$R" link set r0 up; ip -n "$C" link set c0 up
    until ip -n "$C" -6 -o addr show dev c0 scope link | grep -q fe80; do sleep 0.05; done
    until ip -n "$R" -6 -o addr show dev r0 scope link | grep -q fe80; do sleep 0.05; done
    GATEWAY=$(ip -n "$R" -6 -o addr show dev r0 scope link | awk '{print $4}' | cut -d/ -f1)
}

advertise() { ip netns exec "$R" python3 "$RA" --interface r0 --lifetime "$1" --prefix 2001:db8:1::/64 --prefix-lifetime 3600; }

TRACE=/tmp/nrx-slaac-$$-poll.txt
# Counts the waiter's poll returns in the trace: the event socket is the first descriptor it
# polls, the wake pipe the second; a return of 0 is the timer.
causes() {
    awk -v first="$1" -v pipe="$2" '/poll/ && / = [0-9]/ {
            result = substr($0, index($0, ") = ") + 4)
            if (result ~ /^0 \(Timeout\)/) { timer++; next }
            match(result, /fd=[0-9]+/); fd = substr(result, RSTART + 3, RLENGTH - 3)
            if (fd == first) socket++; else if (fd == pipe) poked++
         } END { printf "%d %d %d", socket + 0, timer + 0, poked + 0 }' "$TRACE"
}

# Starts the watch and the message count once the route is there; runs the window's traffic; prints one line.
window() {
    local name=$1 traffic=$2
    "$BIN" watch --netns "$C" > /tmp/nrx-slaac-$$-watch.txt 2>&1 & WATCH=$!
    ip netns exec "$C" ip monitor all > /tmp/nrx-slaac-$$-monitor.txt 2>&1 & MONITOR=$!
    sleep 1  # the watch's first record and its engine's start-up are not part of the window
    strace -f -qq -e trace=poll -o "$TRACE" -p "$WATCH" & local tracer=$!
    sleep 0.5
    $traffic
    kill "$tracer"; wait "$tracer" 2>/dev/null || true
    # The waiter's poll set: the event socket, then the wake pipe, then the watches.
    local first pipe
    first=$(grep -o 'poll(\[{fd=[0-9]*, events=POLLIN}, {fd=[0-9]*' "$TRACE" | head -1 | grep -o 'fd=[0-9]*' | head -1 | cut -d= -f2)
    pipe=$(grep -o 'poll(\[{fd=[0-9]*, events=POLLIN}, {fd=[0-9]*' "$TRACE" | head -1 | grep -o 'fd=[0-9]*' | tail -1 | cut -d= -f2)
    read -r socket timer poked < <(causes "$first" "$pipe")
    # `ip monitor all` starts each message with its kind: [ROUTE], [ADDR], [NEIGH], ...
    local messages; messages=$(grep -o '^\[[A-Z]*\]' /tmp/nrx-slaac-$$-monitor.txt | sort | uniq -c | awk '{printf "%s%s %d", sep, $2, $1; sep=", "}')
    local records; records=$(($(wc -l < /tmp/nrx-slaac-$$-watch.txt) - 1))
    printf '%-7s %4d s  waiter wake-ups: event socket %3d, timer %3d, wake pipe %3d  records %d  kernel messages: %s\n' \
        "$name" "$WINDOW" "$socket" "$timer" "$poked" "$records" "${messages:-none}"
    kill "$WATCH" "$MONITOR"; wait "$WATCH" "$MONITOR" 2>/dev/null || true; WATCH=; MONITOR=
}

static_traffic() { sleep "$WINDOW"; }
ra_traffic() {
    local until=$((SECONDS + WINDOW))
    while [ $SECONDS -lt $until ]; do advertise "$LIFETIME"; sleep "$INTERVAL"; done
}
gone_traffic() { advertise "$LIFETIME"; sleep "$WINDOW"; }

setup; ip -n "$C" -6 route add default via "$GATEWAY" dev c0; window static static_traffic
setup; advertise "$LIFETIME"; window ra ra_traffic
setup; window gone gone_traffic
echo "window ${WINDOW} s, advertisements every ${INTERVAL} s with router lifetime ${LIFETIME} s (ra); $(uname -r), $(nproc) cores"
