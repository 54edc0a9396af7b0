#!/usr/bin/env python3
"""Per-change malloc calls (in all, by libnl's code, by Swift's runtime and the executable), context
switches and peak RSS of an observer, in a throwaway namespace.

usage (root): per-change-counts.py KIND N -- CMD...   KIND: link|route|addr|quiet|none; N flaps (2N changes)
quiet: a route to 198.51.100.0/24 added and deleted, which moves no answer of `*` or of an address
outside that prefix (a turn that should print nothing).
Needs malloccount.so beside this script, built from malloccount.c on first use (gcc -O2 -shared
-fPIC -o malloccount.so malloccount.c -ldl): without it the observer would die at start.
The namespace (nrx-13-PID) has the shared harness's layout; it is deleted on every exit path.
Counts, unlike times, do not move with the machine's load (BENCHMARKS.md, issue 13)."""
import os, subprocess, sys, time, signal, glob
from flaps import LAYOUT, flap
kind, n = sys.argv[1], int(sys.argv[2])
cmd = sys.argv[sys.argv.index('--') + 1:]
here = os.path.dirname(os.path.abspath(__file__))
if not os.path.exists(os.path.join(here, "malloccount.so")):
    built = subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", os.path.join(here, "malloccount.so"),
                            os.path.join(here, "malloccount.c"), "-ldl"], stderr=subprocess.PIPE, text=True)
    if built.returncode != 0:
        sys.exit(f"per-change-counts: could not build malloccount.so beside the script (gcc: {built.stderr.strip()[:200]})")
ns = f"nrx-13-{os.getpid()}"
def ip(*a, check=True):
    subprocess.run(["ip", "-n", ns, *a], check=check, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def ctxt(pid):
    v = nv = 0
    for st in glob.glob(f"/proc/{pid}/task/*/status"):
        try:
            for l in open(st):
                if l.startswith("voluntary_ctxt_switches"): v += int(l.split()[1])
                if l.startswith("nonvoluntary_ctxt_switches"): nv += int(l.split()[1])
        except FileNotFoundError: pass
    return v, nv
def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
def hwm(pid):
    for l in open(f"/proc/{pid}/status"):
        if l.startswith("VmHWM"): return int(l.split()[1])
subprocess.run(["ip", "netns", "add", ns], check=True)
out = f"/tmp/nrx-13-counts-{os.getpid()}"
proc = None
try:
    for a in LAYOUT:
        ip(*a)
    env = dict(os.environ, LD_PRELOAD=os.path.join(here, "malloccount.so"), MALLOCCOUNT_OUT=out)
    log = open(out + ".stdout", "w")
    proc = subprocess.Popen(["ip", "netns", "exec", ns, *cmd], env=env, stdout=log, stderr=subprocess.STDOUT)
    time.sleep(1.5)
    def counts():
        before = len(open(out).read().splitlines()) if os.path.exists(out) else 0
        os.kill(proc.pid, signal.SIGUSR2)
        while True:
            lines = open(out).read().splitlines() if os.path.exists(out) else []
            if len(lines) > before and len(lines[-1].split()) == 3: return [int(v) for v in lines[-1].split()]
            time.sleep(0.01)
    m0, c0, t0 = counts(), ctxt(proc.pid), cpu(proc.pid)
    for i in range(n):
        for step in range(2):
            flap(ip, kind, step)
            time.sleep(0.06)
    time.sleep(0.3)
    m1, c1, t1 = counts(), ctxt(proc.pid), cpu(proc.pid)
    changes = 2 * n if kind != "none" else 1
    lines = sum(1 for _ in open(out + ".stdout"))
    total, libnl, swift = ((after - before) / changes for before, after in zip(m0, m1))
    print(f"kind={kind} changes={changes} output_lines={lines} mallocs/change={total:.1f} "
          f"(libnl {libnl:.1f}, Swift runtime and executable {swift:.1f}, other {total - libnl - swift:.1f}) "
          f"vol_ctxt/change={(c1[0]-c0[0])/changes:.2f} invol/change={(c1[1]-c0[1])/changes:.2f} "
          f"cpu_ms/change={(t1-t0)*1000/changes:.3f} VmHWM_KiB={hwm(proc.pid)}")
finally:
    if proc:
        proc.terminate()
        try: proc.wait(5)
        except subprocess.TimeoutExpired: proc.kill()
    subprocess.run(["ip", "netns", "del", ns])
    for f in glob.glob(out + "*"): os.remove(f)
