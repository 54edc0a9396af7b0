#!/usr/bin/env python3
"""Writes the linker's symbol order for the command's release build (scripts/hot-functions.txt):
the functions a change runs through, so that the linker puts them side by side.

usage (root): hot-functions.py [OUT] -- CMD...     e.g. hot-functions.py -- .build/command-static/release/reachability watch --json
A change that comes after a pause finds its code out of the caches. Spread over the binary as
the compiler emits it (module by module, file by file), a route change's 1,400 lines of code sat
on 160 pages among code that never runs; side by side they sit on under 50, which the processor
fetches ahead and maps with fewer misses (BENCHMARKS.md, "Code laid out by what a change runs").
The functions come from callgrind (`FOOTPRINT` of instructions-per-change.py) over route, link and
address flaps, in that order, each kind's by the lines it touches, most first; a function is
listed once. Those of the executable and of the Swift runtime are kept (the installed build links
the runtime in); the C library's and libnl's are shared libraries the order cannot reach.
Run it again when a change's path has moved much: a name the binary no longer has is skipped by
the linker (`--no-warn-symbol-ordering`), and a new function is only laid out where it falls."""
import os, re, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
arguments = sys.argv[1:sys.argv.index("--")]
out = arguments[0] if arguments else os.path.join(here, "..", "scripts", "hot-functions.txt")
cmd = sys.argv[sys.argv.index("--") + 1:]
executable = os.path.basename(cmd[0])
kept = {executable, "libswiftCore.so", "libswiftDispatch.so", "libdispatch.so", "libswift_Concurrency.so"}
line = re.compile(r"^\s+(\d+) lines\s+(\S+)\s+(\S.*)$")

order, seen = [], set()
for kind in ("route", "link", "addr"):
    run = subprocess.run([sys.executable, os.path.join(here, "instructions-per-change.py"), kind, "--", *cmd],
                         env={**os.environ, "FOOTPRINT": "100000"}, stdout=subprocess.PIPE, text=True, check=True)
    for match in filter(None, map(line.match, run.stdout.splitlines())):
        lines, owner, symbol = match.groups()
        symbol = re.sub(r"'\d+$", "", symbol)  # callgrind's mark of a function's second context
        if owner in kept and symbol not in seen and not symbol.startswith("0x"):
            seen.add(symbol)
            order.append(symbol)
    print(f"hot-functions: {kind}: {len(order)} functions so far", file=sys.stderr)

# The linker places sections, not symbols: a function the compiler did not put in a section of its
# own (the Swift standard library's own code, built as a few large sections) would drag its whole
# section, a megabyte and more, into the middle of the order. Only functions with a section of
# their own are listed: those of the build's objects (-function-sections) and of the toolchain's
# static libraries that have one (the runtime's C and C++ functions).
def own_sections(paths):
    names = set()
    for path in paths:
        listing = subprocess.run(["readelf", "-SW", path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
        names.update(re.findall(r"\] \.text\.(\S+) ", listing))
    return names


build = os.path.dirname(os.path.realpath(cmd[0]))
swiftc = subprocess.run(["sh", "-c", "command -v swiftc"], stdout=subprocess.PIPE, text=True).stdout.strip()
static = os.path.join(os.path.dirname(os.path.realpath(swiftc)), "..", "lib", "swift_static", "linux") if swiftc else ""
paths = [os.path.join(root, name) for root, _, names in os.walk(build) for name in names if name.endswith(".o")]
paths += [os.path.join(static, name) for name in (os.listdir(static) if os.path.isdir(static) else []) if name.endswith(".a")]
sectioned = own_sections(paths)
placed = [symbol for symbol in order if symbol in sectioned]
print(f"hot-functions: {len(order) - len(placed)} of {len(order)} functions have no section of their own: left out",
      file=sys.stderr)
order = placed

with open(out, "w") as file:
    file.write("# The linker's symbol order for the command's release build (scripts/build-command):\n"
               "# the functions route, link and address changes run through, written by\n"
               "# Benchmarks/hot-functions.py. Generated; do not edit by hand.\n")
    file.writelines(symbol + "\n" for symbol in order)
print(f"hot-functions: {len(order)} functions into {out}", file=sys.stderr)
