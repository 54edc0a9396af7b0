#!/usr/bin/env bash
# idle-syscalls.sh NAME SECONDS CMD... -- the system calls an observer makes while nothing changes.
#
# Makes a namespace with the shared harness's layout (lo, a veth pair, 10.77.0.1/24, a default
# route), starts CMD in it, waits for its first line of output, then counts every system call of
# every thread of CMD for SECONDS, after it settled (`perf stat -e raw_syscalls:sys_enter -p PID`). Prints one JSON
# line: {"scenario":"idle","observer":NAME,"seconds":..,"syscalls":..}. Needs root and perf.
# The namespace is named ${NRX_BENCH_PREFIX:-nrx-idle-$$-}NAME and deleted on every exit path.
set -uo pipefail
name=$1 seconds=$2
shift 2
ns="${NRX_BENCH_PREFIX:-nrx-idle-$$-}idle-$name"
out=$(mktemp)
pid=
cleanup() {
	[[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	ip netns del "$ns" 2>/dev/null
	rm -f "$out" "$out.perf"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
ip netns add "$ns" || exit 1
for args in "link set lo up" "link add v0 type veth peer name v1" "link set v0 up" "link set v1 up" \
	"addr add 10.77.0.1/24 dev v0" "route add default via 10.77.0.2"; do
	ip -n "$ns" $args || exit 1
done
ip netns exec "$ns" "$@" >"$out" 2>&1 &
pid=$!
for _ in $(seq 100); do [[ -s $out ]] && break; sleep 0.05; done
[[ -s $out ]] || { echo "idle-syscalls: $name printed nothing in 5 s" >&2; exit 1; }
# Settled first: the new link's IPv6 duplicate address detection ends about 2 s after it came up
# (its messages are changes, not idleness), and libdispatch lets a worker thread that ran the
# start-up go about 5 s after its last work item (three calls: the thread's exit).
sleep "${SETTLE_SECONDS:-6}"
perf stat -x, -e raw_syscalls:sys_enter -p "$pid" -o "$out.perf" -- sleep "$seconds" >/dev/null 2>&1 ||
	{ echo "idle-syscalls: perf stat failed (is perf installed, and tracefs mounted?)" >&2; exit 1; }
# "<not counted>": no thread of the process ran while perf watched, so it made no call.
count=$(awk -F, '/raw_syscalls:sys_enter/ { print ($1 ~ /not counted/ ? 0 : $1) }' "$out.perf")
printf '{"scenario":"idle","observer":"%s","seconds":%s,"syscalls":%s,"lines":%s}\n' \
	"$name" "$seconds" "${count:-null}" "$(wc -l <"$out")"
