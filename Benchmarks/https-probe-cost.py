#!/usr/bin/env python3
"""CPU and bytes of one connectivity probe: tcp://, http:// and https:// side by side, same run.

usage (root): https-probe-cost.py SECONDS -- REACHABILITY   (a release build: .build/release/reachability)
Two throwaway namespaces (nrx-hb-PID-client, -up: a veth pair, 10.88.0.1 -> 10.88.0.2) with
Tests/Servers/probe_server.py (HTTP, 204) and tls_server.py (HTTPS, 204, an ECDSA P-256
certificate from make_test_certs.sh's test CA) in the upstream. For each kind, `reachability watch
--probe URL --probe-interval 1` runs SECONDS; the cost per probe is the watch process's CPU (all
threads' sum_exec_runtime, /proc/PID/task/*/schedstat, ns) over the probes the server counted,
after subtracting the same process's idle CPU (a watch without a probe, same duration), and the
bytes are the client veth's rx+tx counters over the same probes. Everything is deleted on exit."""
import json, os, shutil, subprocess, sys, tempfile, time
seconds = float(sys.argv[1])
binary = sys.argv[sys.argv.index("--") + 1]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
servers = os.path.join(root, "Tests", "Servers")
client, up = f"nrx-hb-{os.getpid()}-client", f"nrx-hb-{os.getpid()}-up"
state = tempfile.mkdtemp(prefix="nrx-hb-")
procs = []
def ip(ns, *a):
    subprocess.run(["ip", "-n", ns, *a], check=True)
def cpu_ns(pid):
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try: total += int(open(f"/proc/{pid}/task/{task}/schedstat").read().split()[0])
        except FileNotFoundError: pass
    return total
def veth_bytes():
    link = json.loads(subprocess.run(["ip", "-n", client, "-s", "-j", "link", "show", "c0"], check=True,
                                     capture_output=True, text=True).stdout)[0]["stats64"]
    return link["rx"]["bytes"] + link["tx"]["bytes"]
def count(path):
    try: return int(open(path).read())
    except (FileNotFoundError, ValueError): return 0
def measure(arguments, counter):
    before_count, before_bytes = count(counter) if counter else 0, veth_bytes()
    watch = subprocess.Popen(["ip", "netns", "exec", client, binary, "watch", "--json", *arguments],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)  # started: the engine's first evaluation is not the probe's cost
    pid = watch.pid  # `ip netns exec` execs the command: same process
    start_cpu, start_count, start_bytes = cpu_ns(pid), count(counter) if counter else 0, veth_bytes()
    time.sleep(seconds)
    end_cpu, end_count, end_bytes = cpu_ns(pid), count(counter) if counter else 0, veth_bytes()
    watch.terminate(); watch.wait()
    return end_cpu - start_cpu, end_count - start_count, end_bytes - start_bytes
try:
    subprocess.run(["ip", "netns", "add", client], check=True); subprocess.run(["ip", "netns", "add", up], check=True)
    ip(client, "link", "add", "c0", "type", "veth", "peer", "name", "u0", "netns", up)
    ip(client, "addr", "add", "10.88.0.1/24", "dev", "c0"); ip(up, "addr", "add", "10.88.0.2/24", "dev", "u0")
    for ns, dev in ((client, "c0"), (up, "u0"), (client, "lo"), (up, "lo")): ip(ns, "link", "set", dev, "up")
    ip(client, "route", "add", "default", "via", "10.88.0.2")
    os.makedirs(f"{state}/certs"); os.makedirs(f"{state}/http"); os.makedirs(f"{state}/tls")
    subprocess.run([f"{servers}/make_test_certs.sh", f"{state}/certs", "probe.nrx.test", "10.88.0.2"], check=True)
    procs.append(subprocess.Popen(["ip", "netns", "exec", up, "python3", f"{servers}/probe_server.py", "--address", "10.88.0.2",
                                   "--port", "8080", "--state", f"{state}/http"]))
    procs.append(subprocess.Popen(["ip", "netns", "exec", up, "python3", f"{servers}/tls_server.py", "--address", "10.88.0.2",
                                   "--port", "8443", "--state", f"{state}/tls", "--certs", f"{state}/certs"]))
    while not (os.path.exists(f"{state}/http/ready") and os.path.exists(f"{state}/tls/ready")): time.sleep(0.05)
    every = ["--probe-interval", "1"]
    idle_cpu, _, _ = measure([], None)
    rows = [("tcp://", measure(["--probe", "tcp://10.88.0.2:8080", *every], f"{state}/http/connections")),
            ("http://", measure(["--probe", "http://10.88.0.2:8080/generate_204", *every], f"{state}/http/connections")),
            ("https://", measure(["--probe", "https://10.88.0.2:8443/generate_204", "--probe-ca", f"{state}/certs/ca.pem", *every],
                                 f"{state}/tls/requests"))]
    print(f"idle watch: {idle_cpu / 1e6:.2f} ms CPU in {seconds:.0f} s")
    print("| probe | probes | CPU per probe (idle subtracted) | bytes per probe (both directions, on the wire) |")
    print("| --- | --- | --- | --- |")
    for name, (cpu, probes, wire) in rows:
        probes = max(probes, 1)
        print(f"| {name} | {probes} | {(cpu - idle_cpu) / probes / 1e6:.2f} ms | {wire / probes:.0f} |")
finally:
    for p in procs: p.terminate()
    for p in procs: p.wait()
    for ns in (client, up): subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)
    shutil.rmtree(state, ignore_errors=True)
