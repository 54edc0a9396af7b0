#!/usr/bin/env python3
"""How long `reachability check` takes, from exec to its answer and from its answer to its exit,
beside `ip route get` from exec to exit: medians of ROUNDS runs, in a throwaway namespace.

Usage (root): Benchmarks/check-exit.py PATH/TO/reachability [ROUNDS]

The namespace (nrx-bench-PID-check) holds a veth with 10.77.0.1/24 and is deleted on every exit
path. The time of the answer is when its line arrives on the pipe; the exit is when waitpid
returns, so the process's whole teardown (its threads, its descriptors) counts.
"""
import os
import statistics
import subprocess
import sys
import time

NAMESPACE = f"nrx-bench-{os.getpid()}-check"
TARGET = "10.77.0.2"


def ip(*arguments):
    subprocess.run(["ip", *arguments], check=True)


def timed(command):
    """(exec to first line, first line to exit, exec to exit) in ms."""
    start = time.monotonic()
    process = subprocess.Popen(["ip", "netns", "exec", NAMESPACE, *command], stdout=subprocess.PIPE)
    process.stdout.readline()
    answered = time.monotonic()
    process.stdout.read()
    process.wait()
    ended = time.monotonic()
    return ((answered - start) * 1000, (ended - answered) * 1000, (ended - start) * 1000)


def main():
    command = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    ip("netns", "add", NAMESPACE)
    try:
        ip("-n", NAMESPACE, "link", "set", "lo", "up")
        ip("-n", NAMESPACE, "link", "add", "v0", "type", "veth", "peer", "name", "v1")
        ip("-n", NAMESPACE, "link", "set", "v0", "up")
        ip("-n", NAMESPACE, "link", "set", "v1", "up")
        ip("-n", NAMESPACE, "addr", "add", "10.77.0.1/24", "dev", "v0")
        timed([command, "check", TARGET])  # warm the page cache
        checks = [timed([command, "check", TARGET]) for _ in range(rounds)]
        routes = [timed(["ip", "route", "get", TARGET]) for _ in range(rounds)]
        median = lambda values: statistics.median(values)
        print(f"check: exec to answer {median([c[0] for c in checks]):.1f} ms, "
              f"answer to exit {median([c[1] for c in checks]):.1f} ms "
              f"(max {max(c[1] for c in checks):.1f}), exec to exit {median([c[2] for c in checks]):.1f} ms")
        print(f"ip route get: exec to exit {median([r[2] for r in routes]):.1f} ms")
        print(f"ratio: {median([c[2] for c in checks]) / median([r[2] for r in routes]):.2f}x (medians of {rounds})")
    finally:
        subprocess.run(["ip", "netns", "del", NAMESPACE])


if __name__ == "__main__":
    main()
