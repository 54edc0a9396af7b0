#!/usr/bin/env python3
"""bench-table.py OUT -- the one table of scripts/bench: each target of issue 7 with our number,
the floor's and the peers' from the same run, and met / not met.

Reads OUT/harness/results-KIND.json (the shared harness) and OUT/scenarios.jsonl (nrx-bench)."""
import json
import os
import platform
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/nrx-bench"
US = "reachability"
PEERS = ["iproute2", "nl-monitor", "glib"]

harness = {}
for kind in ["link-flap", "route-flap", "addr-flap", "churn"]:
    path = os.path.join(out, "harness", f"results-{kind}.json")
    if os.path.exists(path):
        with open(path) as f:
            data = json.load(f)
        harness[kind] = {o["name"]: o for o in data.get("observers", [])}
        harness[kind]["_meta"] = data.get("meta", {})

scen = {}
path = os.path.join(out, "scenarios.jsonl")
if os.path.exists(path):
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            rec = json.loads(line)
            key = rec.get("scenario")
            if key == "flap":
                key += f"-{rec.get('kind')}"
            if key == "idle":
                key += f"-{rec.get('observer')}"
            if key in ("memory", "reeval"):
                key += f"-{rec.get('monitors')}" + ("-same" if rec.get("same_destination") else "")
            scen[key] = rec

rows = []


def row(measure, target, ours, others, verdict):
    rows.append((measure, target, ours, others, verdict))


def lat(obs, q):
    return obs.get("latency_us", {}).get(q)


def cpu(obs):
    return obs.get("observer", {}).get("cpu_us_per_change")


def verdict(ok):
    return "—" if ok is None else ("**met**" if ok else "**not met**")


NAMES = {"link-flap": "link", "route-flap": "route", "addr-flap": "address"}

# Latency p50 / p99 and CPU per change, per kind.
for kind, label in NAMES.items():
    h = harness.get(kind)
    if not h:
        row(f"event → callback p50, {label}", "≤ 1.5× floor, < every peer", "not run", "", verdict(None))
        continue
    floor = h.get("floor", {})
    peers = {p: h[p] for p in PEERS if p in h}
    others = f"floor {lat(floor, 'p50')}; " + ", ".join(f"{p} {lat(o, 'p50')}" for p, o in peers.items())
    us = h.get(US)
    if us is None:
        row(f"event → callback p50, {label} (µs)", "≤ 1.5× floor, < every peer", "not measured (no `watch`)", others, verdict(None))
        row(f"event → callback p99, {label} (µs)", "< 2000", "not measured", f"floor {lat(floor, 'p99')}", verdict(None))
        row(f"CPU per change, {label} (µs)", "< ½ GLib's", "not measured",
            f"floor {cpu(floor)}, GLib {cpu(h.get('glib', {}))}", verdict(None))
        continue
    p50 = lat(us, "p50")
    det = f" ({us.get('detected')}/{us.get('changes')} detected)"
    ok = p50 is not None and lat(floor, "p50") and p50 <= 1.5 * lat(floor, "p50") and all(
        p50 < lat(o, "p50") for o in peers.values())
    row(f"event → callback p50, {label} (µs)", "≤ 1.5× floor, < every peer", f"{p50}{det}", others, verdict(ok))
    p99 = lat(us, "p99")
    row(f"event → callback p99, {label} (µs)", "< 2000", f"{p99}",
        f"floor {lat(floor, 'p99')}; " + ", ".join(f"{p} {lat(o, 'p99')}" for p, o in peers.items()),
        verdict(p99 is not None and p99 < 2000))
    g = cpu(h.get("glib", {}))
    c = cpu(us)
    row(f"CPU per change, {label} (µs)", "< ½ GLib's", f"{c}", f"floor {cpu(floor)}, GLib {g}",
        verdict(c is not None and g is not None and c < g / 2))

# The same flaps driven in process (nrx-bench flap): the library alone, without the command.
FLAPS = {"link": "link", "route": "route", "addr": "address"}
for kind, label in FLAPS.items():
    fl = scen.get(f"flap-{kind}")
    if not fl:
        continue
    lu = fl["latency_us"]
    row(f"the library alone, {label} ({fl['target']}, in process, {fl['changes']} changes)", "(diagnostic)",
        f"p50 {lu['p50']:.0f} µs, p99 {lu['p99']:.0f} µs; CPU {fl['cpu_us_per_change']} µs/change",
        f"{fl.get('lookups_per_change', '?')} lookups/change; {fl['missed']} missed", verdict(None))

# Container churn (harness) and the quiet scenario.
h = harness.get("churn")
if h:
    peers = ", ".join(f"{p} {h[p].get('spurious_events')}" for p in ["floor"] + PEERS if p in h)
    if US in h:
        sp = h[US].get("spurious_events")
        row(f"container churn: spurious notifications ({h['_meta'].get('cycles')} veth pairs, harness)", "0", f"{sp}",
            peers, verdict(sp == 0))
    else:
        row("container churn: spurious notifications (harness)", "0", "not measured (no `watch`)", peers, verdict(None))
q = scen.get("quiet")
if q:
    flags_cb = q["general_flags_callbacks"] + q["address_flags_callbacks"]
    path_cb = q["general_path_callbacks"] + q["address_path_callbacks"]
    row(f"churn that moves no target: callbacks ({q['veth_pairs']} veth pairs + {q['route_rate']} route changes/s, "
        f"{q['seconds']} s, {q['monitors']} monitors)", "0",
        f"{flags_cb} flags, {path_cb} path", f"lookups/route change {q.get('lookups_per_route_change', '?')}",
        verdict(flags_cb == 0 and path_cb == 0))
    row("the same: CPU (% of one core)", "< 5", f"{q['cpu_percent_of_core']}", "", verdict(q["cpu_percent_of_core"] < 5))

r = scen.get("routes")
if r:
    row(f"{r['routes']} routes (`ip -batch`): RSS added (MiB)", "< 5", f"{r['rss_added_mib']}",
        f"heap {r['heap_added_mib']} MiB; digest {r['digest_cpu_ms']} ms CPU", verdict(r["rss_added_mib"] < 5))
    lk = r.get("lookup_cost_us_per_change")
    row(f"route churn there: engine CPU per change (µs, {r['churn_rate']}/s)", "≤ cost of its lookups",
        f"{r['churn_cpu_us_per_change']} ({r['churn_cpu_percent_of_core']}% of a core)",
        f"{r.get('lookups_per_change', '?')} lookups × raw {r['raw_lookup_us']['p50']} µs = {lk}",
        verdict(None if lk is None else r["churn_cpu_us_per_change"] <= lk))

for key in sorted(k for k in scen if k.startswith("memory-")):
    m = scen[key]
    row(f"{m['monitors']} monitors (distinct addresses): above an empty process (MiB)",
        "< 20" if m["monitors"] >= 10000 else "(< 20 at 10k)",
        f"RSS {m['rss_above_empty_mib']}, heap {m['heap_above_empty_mib']}",
        f"{m['heap_bytes_per_scheduled_monitor']} heap B/monitor", verdict(m["rss_above_empty_mib"] < 20 if m["monitors"] >= 10000 else None))

for key in sorted(k for k in scen if k.startswith("reeval-")):
    e = scen[key]
    same = " (one shared destination)" if e["same_destination"] else ""
    a = e["all_callbacks_us"]
    row(f"{e['monitors']} monitors{same}: change → last callback (ms)", "≤ 20" if e["monitors"] >= 10000 else "(≤ 20 at 10k)",
        f"p50 {a['p50'] / 1000:.1f}, max {a['max'] / 1000:.1f}",
        f"first callback p50 {e['first_callback_us']['p50'] / 1000:.1f} ms; CPU {e['cpu_us_per_change']['p50'] / 1000:.1f} ms/change; "
        f"{e.get('lookups_per_change', '?')} lookups/change",
        verdict(a["max"] <= 20000 if e["monitors"] >= 10000 else None))
same = [scen[k] for k in scen if k.startswith("reeval-") and scen[k]["same_destination"]]
if same:
    e = same[0]
    lk = e.get("lookups_per_change")
    row(f"targets sharing a destination share one lookup ({e['monitors']} monitors, one address)", "1 lookup per destination",
        f"{lk} lookups/change", "", verdict(None if lk is None else lk < 20))

f = scen.get("flags")
if f:
    s = f["scheduled_us"]
    row("`flags()` scheduled address monitor (µs)", "< 20", f"p50 {s['p50']}, p99 {s['p99']}", "", verdict(s["p99"] < 20))
    u = f["unscheduled_us"]
    per = f.get("unscheduled_sendmsg_per_call")
    row("`flags()` unscheduled address monitor", "one kernel round trip",
        f"{per} requests/call; p50 {u['p50']} µs, p99 {u['p99']} µs", f"raw RTM_GETROUTE p50 {f['raw_lookup_us']['p50']} µs",
        verdict(None if per is None else per <= 1.0))

fc = scen.get("first-callback")
if fc:
    cold = fc["current_cold_us"]
    warm = fc["current_warm_us"]
    extra = ""
    worst = cold["p99"]
    if "netns_cold_us" in fc:
        extra = f"; other namespace: cold p50 {fc['netns_cold_us']['p50'] / 1000:.2f}, p99 {fc['netns_cold_us']['p99'] / 1000:.2f}"
        worst = max(worst, fc["netns_cold_us"]["p99"])
    row("`PathMonitor()` → first callback (ms)", "< 5",
        f"engine closed p50 {cold['p50'] / 1000:.2f}, p99 {cold['p99'] / 1000:.2f}",
        f"engine open p50 {warm['p50'] / 1000:.3f}{extra}", verdict(worst < 5000))

st = scen.get("status")
if st:
    row("`ReachabilityStatus(flags:)` throughput", "(pure part of the evaluator)", f"{st['ns_per_call']} ns/call",
        f"{st['million_per_second']} M/s", verdict(None))

# --- against GLib in the same run: the third performance round's targets ------------------------
glib_rows = []


def ratio(a, b):
    return None if a is None or not b else round(a / b, 2)


for kind, label in NAMES.items():
    h = harness.get(kind, {})
    us, g = h.get(US), h.get("glib")
    if not us or not g:
        continue
    r = ratio(lat(us, "p50"), lat(g, "p50"))
    glib_rows.append((f"p50, {label}", "≤ 1.0× GLib", f"{lat(us, 'p50')} µs = {r}×", f"GLib {lat(g, 'p50')} µs", verdict(r is not None and r <= 1.0)))
    r = ratio(cpu(us), cpu(g))
    glib_rows.append((f"CPU per change, {label}", "≤ 1.0× GLib", f"{cpu(us)} µs = {r}×", f"GLib {cpu(g)} µs", verdict(r is not None and r <= 1.0)))
    glib_rows.append((f"p99, {label}", "< 1000 µs", f"{lat(us, 'p99')} µs", f"GLib {lat(g, 'p99')} µs", verdict(lat(us, "p99") is not None and lat(us, "p99") < 1000)))
h = harness.get("churn", {})
if h.get(US) and h.get("glib"):
    r = ratio(cpu(h[US]), cpu(h["glib"]))
    glib_rows.append(("container churn: CPU per churn event; spurious records", "≤ 1.0× GLib; 0",
                      f"{cpu(h[US])} µs = {r}×; {h[US].get('spurious_events')} spurious",
                      f"GLib {cpu(h['glib'])} µs; {h['glib'].get('spurious_events')} spurious",
                      verdict(r is not None and r <= 1.0 and h[US].get("spurious_events") == 0)))
for kind in ["link-flap", "route-flap", "addr-flap"]:
    h = harness.get(kind, {})
    rss, grss = h.get(US, {}).get("observer", {}).get("peak_rss_kib"), h.get("glib", {}).get("observer", {}).get("peak_rss_kib")
    if rss and grss:
        r = ratio(rss, grss)
        glib_rows.append((f"peak RSS of `watch`, {NAMES[kind]} run", "< 2× gmon", f"{rss} KiB = {r}×", f"gmon {grss} KiB", verdict(r < 2)))
        break
for key, target in (("reeval-10000-same", "< 10 ms"), ("reeval-10000", "≤ 1.3× their raw lookups")):
    e = scen.get(key)
    if not e:
        continue
    p50 = e["all_callbacks_us"]["p50"]
    if key.endswith("same"):
        glib_rows.append(("10,000 monitors, one destination: change → last callback", target, f"p50 {p50 / 1000:.1f} ms",
                          f"CPU {e['cpu_us_per_change']['p50'] / 1000:.1f} ms/change", verdict(p50 < 10000)))
    else:
        r = e.get("all_callbacks_p50_over_raw_lookups_p50")
        raw = e.get("raw_lookups_of_all_targets_us", {}).get("p50")
        glib_rows.append(("10,000 distinct destinations: change → last callback", target, f"p50 {p50 / 1000:.1f} ms = {r}×",
                          f"raw lookups {raw / 1000:.1f} ms" if raw else "raw lookups ?", verdict(r is not None and r <= 1.3)))
for name in (US, "glib"):
    i = scen.get(f"idle-{name}")
    if i:
        glib_rows.append((f"idle: system calls of {name} in {i['seconds']} s", "0", f"{i['syscalls']}", "", verdict(i["syscalls"] == 0)))
r = scen.get("routes")
if r:
    cb = sum(r["churn_callbacks"].values()) + sum(r["load_callbacks"].values())
    glib_rows.append((f"{r['routes']} routes, {r['churn_rate']} route changes/s that move no answer", "a few µs a change; nothing printed",
                      f"{r['churn_cpu_us_per_change']} µs a change; {cb} callbacks", f"raw lookup {r['raw_lookup_us']['p50']} µs", verdict(None)))

# --- print --------------------------------------------------------------------------------
meta = next((h["_meta"] for h in harness.values()), {})
print(f"machine: {os.cpu_count()} cores, kernel {platform.release()}; harness: "
      + (f"{meta.get('cycles')} cycles, {meta.get('rounds')} round(s), {meta.get('mode')}, pin {meta.get('pin')}" if meta else "not run"))
notes = os.path.join(out, "notes.txt")
if os.path.exists(notes):
    for line in open(notes):
        if line.strip():
            print(f"note: {line.strip()}")
print()
print("| measure | target | NetworkReachability | floor / peers, same run | verdict |")
print("| --- | --- | --- | --- | --- |")
for r in rows:
    print("| " + " | ".join(str(x) for x in r) + " |")
if glib_rows:
    print()
    print("Against GLib's GNetworkMonitor in the same run (the third performance round's targets):")
    print()
    print("| measure | target | NetworkReachability | GLib / raw, same run | verdict |")
    print("| --- | --- | --- | --- | --- |")
    for r in glib_rows:
        print("| " + " | ".join(str(x) for x in r) + " |")
