#!/usr/bin/env bash
# Benchmarks/where-time-goes.sh [KIND] [CHANGES] [nrx-bench flap options...]
#
# Splits one change's latency in the library with uprobes (perf probe), for the engine's owner:
#   send -> engine        the change request leaves nrx-bench (nrxb_route4 / link / addr) until
#                         NetlinkEngine.handleReadable starts (kernel work, multicast, dispatch's
#                         manager thread, the engine's worker thread waking)
#   engine pass           handleReadable, entry to return, and in it: drain (nl_cache_mngr_data_ready),
#                         evaluate, the preference order (defaultRouteMetrics), lookups (RouteLookupSocket.send),
#                         the resolv.conf check (NameServerConfiguration.refresh)
#   send -> delivery      until MonitorCore.deliver starts on the monitor's queue
# and counts the lookup socket's send calls (one per RTM_GETROUTE lookup) inside each.
#
# KIND: route (default) | link | addr. Needs root and perf with uprobes; the probes are removed
# on every exit path. Build first: swift build -c release --product nrx-bench (in Benchmarks/).
set -uo pipefail
KIND=${1:-route}; CHANGES=${2:-200}; shift $(( $# > 2 ? 2 : $# ))
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=$HERE/.build/release/nrx-bench
LIBNL=$(ldconfig -p | awk '/libnl-3.so.200 / {print $NF; exit}')
[[ $(id -u) == 0 ]] || { echo "needs root (uprobes, namespaces)" >&2; exit 2; }
[[ -x $BIN ]] || { echo "build nrx-bench first (swift build -c release --product nrx-bench)" >&2; exit 2; }
command -v perf >/dev/null || { echo "needs perf (apt-get install linux-perf)" >&2; exit 2; }
BIN=$(readlink -f "$BIN")
DATA=$(mktemp /tmp/nrx-where-XXXXXX.data)
GROUP=nrxwhere$$

cleanup() {
	perf probe -q -d "$GROUP:*" 2>/dev/null
	rm -f "$DATA"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

sym() { nm "$BIN" | awk -v re="$1" '$0 ~ re {print $3; exit}'; }
probe() { perf probe -q -x "$1" --add "$GROUP:$2" >/dev/null 2>&1 || echo "note: probe $2 not placed" >&2; }
# span LABEL LIBRARY SYMBOL: time from entry to return, summed per change (inside the engine's pass)
span() {
	[[ -n $3 ]] || { echo "note: no symbol for $1" >&2; return; }
	probe "$2" "s_$1=$3"
	probe "$2" "s_$1=$3%return"
}
HR=$(sym 'NetlinkEngineC14handleReadable')
DLV=$(sym 'MonitorCoreC7deliver.*LLVFyyXEfU_$')
[[ -n $HR && -n $DLV ]] || { echo "symbols not found in $BIN (the engine changed?)" >&2; exit 1; }
probe "$BIN" "hr=$HR"
probe "$BIN" "hrret=$HR%return"
probe "$BIN" "dlv=$DLV"
span drain "$LIBNL" nl_cache_mngr_data_ready
span evaluate "$BIN" "$(sym 'NetlinkEngineC8evaluate.*includingPending')"
span preference "$BIN" "$(sym 'NetlinkEngineC19defaultRouteMetrics.*Tf4nggg_nTf0nsnn_n$')"
span nameservers "$BIN" "$(sym 'NameServerConfigurationV7refresh')"
span lookup "$BIN" "$(sym 'RouteLookupSocketC4send')"
for f in nrxb_route4 nrxb_link_set_up nrxb_addr4; do probe "$BIN" "send_$f=$f"; done

extra=("$@")
[[ $KIND == addr && ${#extra[@]} == 0 ]] && extra=(--target 10.77.9.5)
perf record -q -e "$GROUP:*" -o "$DATA" -- "$BIN" flap --kind "$KIND" --changes "$CHANGES" --no-perf "${extra[@]}" ||
	{ echo "perf record failed" >&2; exit 1; }
TEXT=$DATA.txt
perf script -i "$DATA" -F time,event >"$TEXT" 2>/dev/null
python3 - "$TEXT" <<'PY'
import sys
events = []
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) < 2: continue
    events.append((float(parts[0].rstrip(":")), parts[1].rstrip(":").split(":")[1]))
changes, cur = [], None
in_hr = False
opened = {}
for t, e in events:
    if e.startswith("send_"):
        # A link-flap "up" is two requests (link up, then the default route): a request that
        # comes before the engine ran for the previous one belongs to the same change.
        if cur is None or "hr" in cur:
            cur = {"send": t, "spans": {}, "calls": {}}
            changes.append(cur)
        continue
    if cur is None: continue
    if e == "hr":
        in_hr = True; cur.setdefault("hr", t)
    elif e == "hrret__return":
        in_hr = False; cur.setdefault("hrret", t)
    elif e == "dlv":
        cur.setdefault("dlv", t)
    elif e.startswith("s_") and in_hr:
        label = e[2:]
        if label.endswith("__return"):
            label = label[:-8]
            if label in opened:
                cur["spans"][label] = cur["spans"].get(label, 0.0) + (t - opened.pop(label)) * 1e6
        else:
            opened[label] = t
            cur["calls"][label] = cur["calls"].get(label, 0) + 1
def pct(v, q):
    v = sorted(v)
    return v[max(0, min(len(v), -(-len(v) * q // 100)) - 1)] if v else float("nan")
def show(label, values, calls=None):
    extra = f"  calls/change {calls:.2f}" if calls is not None else ""
    print(f"  {label:<34} p50 {pct(values, 50):7.0f}  p90 {pct(values, 90):7.0f}  p99 {pct(values, 99):7.0f}{extra}")
done = [c for c in changes if "hr" in c and "hrret" in c and "dlv" in c]
n = max(len(done), 1)
print(f"{len(done)} changes with a delivery; microseconds (uprobes add a few us per probe hit):")
show("send -> engine starts", [(c["hr"] - c["send"]) * 1e6 for c in done])
show("engine pass (handleReadable)", [(c["hrret"] - c["hr"]) * 1e6 for c in done])
for label in ["drain", "evaluate", "preference", "lookup", "nameservers"]:
    show(f"  in it: {label}", [c["spans"].get(label, 0.0) for c in done], sum(c["calls"].get(label, 0) for c in done) / n)
show("engine start -> delivery starts", [(c["dlv"] - c["hr"]) * 1e6 for c in done])
show("send -> delivery starts", [(c["dlv"] - c["send"]) * 1e6 for c in done])
print("  (lookup = RouteLookupSocket.send (sendmsg) of one RTM_GETROUTE; preference = defaultRouteMetrics, the order of availableInterfaces)")
PY
rm -f "$TEXT"
