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
`perf stat` or the harness's CPU a change.

FOOTPRINT=1 also prints the code a change runs through, object by object: the distinct 64-byte
lines and 4 KiB pages of instructions whose counts grew between the two runs, and the functions
with the most lines (FOOTPRINT=N lists N). A change that comes after a pause finds that code out
of the caches, so what it costs follows the lines it touches more than the instructions it runs."""
import collections, os, re, signal, subprocess, sys, time
from flaps import KINDS, LAYOUT, flap

kind = sys.argv[1]
if kind not in KINDS:
    sys.exit(f"unknown kind {kind}: one of {', '.join(KINDS)}")
cmd = sys.argv[sys.argv.index("--") + 1:]
few, many = int(os.environ.get("FEW", 20)), int(os.environ.get("MANY", 60))
gap = float(os.environ.get("GAP", 0.05))
footprint = int(os.environ.get("FOOTPRINT", 0))
ns = f"nrx-ipc-{os.getpid()}"


def ip(*arguments):
    subprocess.run(["ip", "-n", ns, *arguments], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def total(flaps):
    """Instructions of one run of the observer under callgrind, through `flaps` flaps."""
    out = f"/tmp/nrx-ipc-{os.getpid()}-{flaps}.callgrind"
    log = open(out + ".stdout", "w")
    # Names as the linker knows them (C++ ones too), for hot-functions.py.
    dump = ["--dump-instr=yes", "--demangle=no"] if footprint else []
    proc = subprocess.Popen(["ip", "netns", "exec", ns, "valgrind", "--tool=callgrind", *dump, f"--callgrind-out-file={out}", *cmd],
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
    costs = instruction_costs(out) if footprint else None
    for path in (out, out + ".stdout"):
        os.unlink(path)
    return int(summary[0].split()[1]), lines, costs


def instruction_costs(path):
    """{(object, address): instructions}, and each address's function, from a callgrind file of
    `--dump-instr=yes` (its positions are addresses, absolute or relative to the last one)."""
    names, current, costs, function_of = {}, {"ob": None, "fn": None}, collections.Counter(), {}
    address, after_call = 0, False
    for line in open(path):
        compressed = re.match(r"^(c?)(ob|fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if compressed:
            called, kind, key, name = compressed.groups()
            if name is not None:
                names[(kind, key)] = name
            if not called:
                current[kind] = names[(kind, key)]
            continue
        if line.startswith("calls="):
            after_call = True  # the next line is the call's inclusive cost, not an instruction's
            continue
        if not line[:1] or line[0] not in "+-*0123456789":
            continue
        fields = line.split()
        position = fields[0]
        if position[0] == "+":
            address += int(position[1:], 0)
        elif position[0] == "-":
            address -= int(position[1:], 0)
        elif position != "*":
            address = int(position, 0)
        if after_call:
            after_call = False
        elif len(fields) >= 3:
            costs[(current["ob"], address)] += int(fields[2])
            function_of[(current["ob"], address)] = current["fn"]
    return costs, function_of


def print_footprint(low, high, changes):
    """Lines and pages of code whose instruction counts grew from the short run to the long."""
    (low_costs, _), (high_costs, function_of) = low, high
    ran = [key for key, count in high_costs.items() if count > low_costs.get(key, 0)]
    by_object = collections.defaultdict(lambda: [0, set(), set()])
    lines_of = collections.defaultdict(set)
    for key in ran:
        entry = by_object[key[0]]
        entry[0] += high_costs[key] - low_costs.get(key, 0)
        entry[1].add(key[1] >> 6)
        entry[2].add(key[1] >> 12)
        lines_of[(key[0], function_of[key])].add(key[1] >> 6)
    for name, (count, lines, pages) in sorted(by_object.items(), key=lambda item: -len(item[1][1])):
        print(f"  {os.path.basename(name or '?'):32s} instructions/change={count / changes:8.0f} lines={len(lines):5d} pages={len(pages):4d}")
    print(f"  {'all':32s} lines={sum(len(entry[1]) for entry in by_object.values()):5d} "
          f"pages={sum(len(entry[2]) for entry in by_object.values()):4d} functions={len(lines_of)}")
    if footprint > 1:
        for (name, function), lines in sorted(lines_of.items(), key=lambda item: -len(item[1]))[:footprint]:
            print(f"  {len(lines):4d} lines  {os.path.basename(name or '?')}  {function}")


subprocess.run(["ip", "netns", "add", ns], check=True)
try:
    for arguments in LAYOUT:
        ip(*arguments)
    (low, low_lines, low_costs), (high, high_lines, high_costs) = total(few), total(many)
    changes = 2 * (many - few)
    print(f"kind={kind} changes={changes} output_lines_per_change={(high_lines - low_lines) / changes:.2f} "
          f"instructions_per_change={(high - low) / changes:.0f}")
    if footprint:
        print_footprint(low_costs, high_costs, changes)
finally:
    subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)
