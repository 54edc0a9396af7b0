#!/usr/bin/env python3
"""User-space instructions an observer executes per change, counted by valgrind's callgrind, in
a throwaway namespace: a count that, unlike CPU time, does not move with the machine's load.

usage (root): instructions-per-change.py KIND -- CMD...   KIND: link|route|addr|quiet
The observer runs twice under callgrind, through FEW and then MANY flaps (2 changes each); the
difference of the two totals, over the difference of the changes, leaves out what starting and
stopping cost. Environment: FEW [20], MANY [60], GAP [0.05] seconds between steps.
quiet: a route to 198.51.100.0/24 added and deleted, which moves no answer of `*`.
The namespace (nrx-ipc-PID) has the shared harness's layout; it is deleted on every exit path.
Needs valgrind (apt-get install valgrind). Kernel time is not counted: compare it with
`perf stat` or the harness's CPU a change."""
import os, signal, subprocess, sys, time
from flaps import KINDS, LAYOUT, flap

kind = sys.argv[1]
if kind not in KINDS:
    sys.exit(f"unknown kind {kind}: one of {', '.join(KINDS)}")
cmd = sys.argv[sys.argv.index("--") + 1:]
few, many = int(os.environ.get("FEW", 20)), int(os.environ.get("MANY", 60))
gap = float(os.environ.get("GAP", 0.05))
ns = f"nrx-ipc-{os.getpid()}"


def ip(*arguments):
    subprocess.run(["ip", "-n", ns, *arguments], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def total(flaps):
    """Instructions of one run of the observer under callgrind, through `flaps` flaps."""
    out = f"/tmp/nrx-ipc-{os.getpid()}-{flaps}.callgrind"
    log = open(out + ".stdout", "w")
    proc = subprocess.Popen(["ip", "netns", "exec", ns, "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd],
                            stdout=log, stderr=subprocess.DEVNULL)
    try:
        time.sleep(8)  # valgrind's start, about 20 times slower than the observer's own
        for _ in range(flaps):
            for step in range(2):
                flap(ip, kind, step)
                time.sleep(gap)
        time.sleep(2)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    lines = open(out + ".stdout").read().count("\n")
    summary = [line for line in open(out) if line.startswith("summary:")]
    for path in (out, out + ".stdout"):
        os.unlink(path)
    return int(summary[0].split()[1]), lines


subprocess.run(["ip", "netns", "add", ns], check=True)
try:
    for arguments in LAYOUT:
        ip(*arguments)
    (low, low_lines), (high, high_lines) = total(few), total(many)
    changes = 2 * (many - few)
    print(f"kind={kind} changes={changes} output_lines_per_change={(high_lines - low_lines) / changes:.2f} "
          f"instructions_per_change={(high - low) / changes:.0f}")
finally:
    subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)
