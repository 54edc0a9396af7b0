#!/usr/bin/env python3
"""Where a command's memory goes, and how long a one-shot command takes from exec to exit, in a
throwaway namespace with the shared harness's layout (v0 10.77.0.1/24 and 10.77.9.1/24, its veth
peer v1, default via 10.77.0.2).

usage (root):
  command-memory.py live [--flaps N] [--no-default-route] [--serve http|https] -- CMD...
      CMD runs until SIGTERM: read after 1 s, then N link flaps (v0 down, up, default route
      replaced), then read again. Prints the peak RSS (VmHWM), /proc/PID/smaps_rollup, the
      resident KiB of each mapping (smaps, summed by file) and whether libssl or libcrypto is mapped.
      With --no-default-route the namespace has none (a `wait` for 192.0.2.10 keeps waiting); the
      route is added at the end and the command must then exit by itself.
  command-memory.py once [--runs N] [--serve http|https] -- CMD...
      CMD runs N times (20) to its exit, with smapsdump.so preloaded (its VmHWM and smaps at exit);
      prints the median exec-to-exit time, the median peak and the last run's mappings.
      `once -- ip route get 10.77.0.2` gives the floor a `check` is held against.
--serve starts Tests/Servers/probe_server.py (http, 204) or tls_server.py (https, its test CA
in %CERTS%/ca.pem: give CMD `--probe-ca %CERTS%/ca.pem`) on 10.77.0.2:8080 / 8443, an address of v1.
Needs smapsdump.so beside this script for `once`: gcc -O2 -shared -fPIC -o smapsdump.so smapsdump.c
The namespace (nrx-mem-PID) and the servers are removed on every exit path."""
import os, shutil, signal, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
SERVERS = os.path.join(HERE, "..", "Tests", "Servers")


def rss_by_mapping(smaps_text):
    """Resident KiB summed by file (anonymous, [heap], [stack] by their names)."""
    totals, name = {}, None
    for line in smaps_text.splitlines():
        fields = line.split()
        if fields and "-" in fields[0] and len(fields) >= 5 and ":" in fields[3]:
            path = fields[5] if len(fields) >= 6 else "anonymous"
            name = os.path.basename(path) if path.startswith("/") else path
        elif fields and fields[0] == "Rss:" and name is not None:
            totals[name] = totals.get(name, 0) + int(fields[1])
    return totals


def report(peak, smaps_text, rollup=None):
    totals = rss_by_mapping(smaps_text)
    print(f"peak RSS (VmHWM): {peak} KiB = {peak / 1024:.1f} MiB")
    if rollup:
        keep = ("Rss", "Pss", "Anonymous", "Private_Clean", "Private_Dirty", "Shared_Clean")
        print("smaps_rollup: " + ", ".join(f"{key} {value} KiB" for key, value in rollup if key in keep))
    print(f"resident now: {sum(totals.values())} KiB, by mapping:")
    for name, kib in sorted(totals.items(), key=lambda item: -item[1]):
        if kib >= 16:
            print(f"  {kib:7d} KiB  {name}")
    tls = sorted(name for name in totals if name.startswith(("libssl", "libcrypto")))
    print("libssl/libcrypto mapped: " + (", ".join(tls) if tls else "no"))


def status_field(text, key):
    for line in text.splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def read_live(pid):
    rollup = []
    for line in open(f"/proc/{pid}/smaps_rollup").read().splitlines()[1:]:
        key, value = line.split(":", 1)
        rollup.append((key, int(value.split()[0])))
    return status_field(open(f"/proc/{pid}/status").read(), "VmHWM"), open(f"/proc/{pid}/smaps").read(), rollup


def ip(ns, *arguments):
    subprocess.run(["ip", "-n", ns, *arguments], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def live(ns, options, command):
    log = open(os.path.join(options["dir"], "stdout"), "w")
    process = subprocess.Popen(["ip", "netns", "exec", ns, *command], stdout=log, stderr=subprocess.STDOUT)
    try:
        time.sleep(1.0)
        start_peak = read_live(process.pid)[0]
        for _ in range(options["flaps"]):
            ip(ns, "link", "set", "v0", "down")
            time.sleep(0.05)
            ip(ns, "link", "set", "v0", "up")
            if options["default"]:
                ip(ns, "route", "replace", "default", "via", "10.77.0.2")
            time.sleep(0.05)
        time.sleep(0.3)
        peak, smaps_text, rollup = read_live(process.pid)
        print(f"peak after 1 s: {start_peak} KiB; after {options['flaps']} link flaps:")
        report(peak, smaps_text, rollup)
        if not options["default"]:
            ip(ns, "route", "add", "default", "via", "10.77.0.2")
            status = process.wait(10)
            print(f"exited {status} once the default route came back")
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
        log.close()
    lines = open(os.path.join(options["dir"], "stdout")).read().splitlines()
    print(f"output: {len(lines)} lines" + (f", last: {lines[-1][:160]}" if lines else ""))


def once_inner(runs, command):
    """Inside the namespace (no `ip netns exec` per run: its mount work would be timed)."""
    out = tempfile.mkdtemp(prefix="nrx-mem-once-")
    preload = os.path.join(HERE, "smapsdump.so")
    times, peaks, statuses = [], [], []
    try:
        for run in range(runs):
            prefix = os.path.join(out, str(run))
            environment = dict(os.environ, LD_PRELOAD=preload, SMAPSDUMP_OUT=prefix)
            began = time.perf_counter()
            status = subprocess.run(command, env=environment, stdout=subprocess.DEVNULL).returncode
            times.append((time.perf_counter() - began) * 1000)
            statuses.append(status)
            peaks.append(status_field(open(prefix + ".status").read(), "VmHWM"))
        # Timed again without the preload, interleaved with nothing else: what a user's run costs.
        bare = []
        for _ in range(runs):
            began = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL)
            bare.append((time.perf_counter() - began) * 1000)
        print(f"exit statuses: {sorted(set(statuses))}")
        print(f"exec to exit, median of {runs}: {statistics.median(bare):.2f} ms "
              f"(min {min(bare):.2f}, max {max(bare):.2f}); with the preload {statistics.median(times):.2f} ms")
        report(int(statistics.median(peaks)), open(os.path.join(out, f"{runs - 1}.smaps")).read())
    finally:
        shutil.rmtree(out)


def serve(ns, kind, directory):
    state = os.path.join(directory, "state")
    os.mkdir(state)
    if kind == "http":
        arguments = [os.path.join(SERVERS, "probe_server.py"), "--address", "10.77.0.2", "--port", "8080", "--state", state]
    else:
        certs = os.path.join(directory, "certs")
        os.mkdir(certs)
        subprocess.run([os.path.join(SERVERS, "make_test_certs.sh"), certs, "probe.test", "10.77.0.2"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        arguments = [os.path.join(SERVERS, "tls_server.py"), "--address", "10.77.0.2", "--port", "8443",
                     "--state", state, "--certs", certs]
    server = subprocess.Popen(["ip", "netns", "exec", ns, "python3", *arguments], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while not os.path.exists(os.path.join(state, "ready")):
        if time.monotonic() > deadline or server.poll() is not None:
            raise SystemExit(f"the {kind} server did not start")
        time.sleep(0.05)
    return server


def main():
    if sys.argv[1] == "--once-inner":
        return once_inner(int(sys.argv[2]), sys.argv[4:])
    mode, rest = sys.argv[1], sys.argv[2:]
    split = rest.index("--")
    flags, command = rest[:split], rest[split + 1:]
    options = {"flaps": 0, "default": True, "serve": None, "runs": 20}
    while flags:
        flag = flags.pop(0)
        if flag == "--flaps": options["flaps"] = int(flags.pop(0))
        elif flag == "--runs": options["runs"] = int(flags.pop(0))
        elif flag == "--serve": options["serve"] = flags.pop(0)
        elif flag == "--no-default-route": options["default"] = False
        else: raise SystemExit(f"unknown option {flag}")
    ns = f"nrx-mem-{os.getpid()}"
    options["dir"] = tempfile.mkdtemp(prefix="nrx-mem-")
    command = [part.replace("%CERTS%", os.path.join(options["dir"], "certs")) for part in command]
    subprocess.run(["ip", "netns", "add", ns], check=True)
    server = None
    try:
        for arguments in [("link", "set", "lo", "up"), ("link", "add", "v0", "type", "veth", "peer", "name", "v1"),
                          ("link", "set", "v0", "up"), ("link", "set", "v1", "up"),
                          ("addr", "add", "10.77.0.1/24", "dev", "v0"), ("addr", "add", "10.77.9.1/24", "dev", "v0"),
                          ("addr", "add", "10.77.0.2/24", "dev", "v1")]:
            ip(ns, *arguments)
        if options["default"]:
            ip(ns, "route", "add", "default", "via", "10.77.0.2")
        if options["serve"]:
            server = serve(ns, options["serve"], options["dir"])
        if mode == "live":
            live(ns, options, command)
        else:
            subprocess.run(["ip", "netns", "exec", ns, sys.executable, os.path.abspath(__file__), "--once-inner",
                            str(options["runs"]), "--", *command], check=True)
    finally:
        if server:
            server.terminate()
            server.wait()
        subprocess.run(["ip", "netns", "del", ns])
        shutil.rmtree(options["dir"])


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    main()
