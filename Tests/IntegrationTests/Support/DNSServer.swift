import Foundation
import NetworkReachability
import Synchronization
import XCTest

#if canImport(Glibc)
import Glibc
#endif

// Name servers for the host-name tests: dnsmasq (Debian's dnsmasq-base) or a server that never
// answers, each running inside a throwaway namespace `nrx-dns-PID-N` whose
// `/etc/netns/NAME/resolv.conf` points at it.
//
// Everything a test bed starts (the namespace, its files under /etc/netns, the servers) goes on
// every exit path of `withDNSNamespace`. Should the test process itself die, the servers die with
// it (dnsmasq and the shell that holds it through `setpriv --pdeathsig KILL`, the python helpers
// at the end of their stdin) and the next run removes the namespace and its files once they are
// old enough.

/// dnsmasq as Debian's dnsmasq-base installs it.
let dnsmasqExecutable = "/usr/sbin/dnsmasq"

/// A python3 for the helpers (a server that never answers, the resolver oracle), or nil.
let pythonExecutable: String? = ["/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

/// `setpriv` of util-linux: makes a server die with the test process.
private let setprivExecutable: String? = ["/usr/bin/setpriv", "/bin/setpriv"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

/// The zone the test servers answer for with authority: a name in it that they do not know gets
/// NXDOMAIN (dnsmasq's `--local`), never a refusal.
let testZone = "nrx.test"

/// One name and the addresses the server gives for it (A and AAAA records, in this order).
struct DNSRecord: Sendable {
    var name: String
    var addresses: [String]

    init(_ name: String, _ addresses: String...) {
        self.name = name
        self.addresses = addresses
    }
}

/// What a test needs on this machine, or why it cannot run.
enum DNSRequirement {
    case namespaces, dnsmasq, python

    var problem: String? {
        switch self {
        case .namespaces:
            return namespaceSupportProblem
        case .dnsmasq:
            return FileManager.default.isExecutableFile(atPath: dnsmasqExecutable)
                ? nil : "no dnsmasq at \(dnsmasqExecutable) (Debian's dnsmasq-base; scripts/bootstrap installs it)"
        case .python:
            return pythonExecutable == nil ? "no python3 (looked in /usr/bin, /usr/local/bin, /bin) for the test's helpers" : nil
        }
    }
}

private let dnsNamespaceSerial = Atomic<Int>(0)
private let sweptDeadRuns = Mutex(false)
/// Whether this process made `/etc/netns` (then it removes it again once it is empty).
private let madeNetnsDirectory = Mutex(false)

/// Runs `body` with a test bed in a fresh namespace `nrx-dns-PID-N` whose `lo` is up and holds
/// `DNSTestBed.serverAddress`. The namespace, `/etc/netns/NAME` and every process the bed started
/// are removed on every exit path; the test fails if the namespace is still listed after.
///
/// - Parameter requirements: what the test needs besides root and namespaces (checked first).
/// - Throws: `XCTSkip` naming what is missing.
func withDNSNamespace(
    requiring requirements: [DNSRequirement] = [.dnsmasq],
    file: StaticString = #filePath, line: UInt = #line,
    _ body: (DNSTestBed) throws -> Void
) throws {
    for requirement in [DNSRequirement.namespaces] + requirements {
        if let problem = requirement.problem { throw XCTSkip(problem, file: file, line: line) }
    }
    removeDNSNamespacesOfDeadRuns()
    let serial = dnsNamespaceSerial.add(1, ordering: .relaxed).newValue
    let name = "nrx-dns-\(getpid())-\(serial)"
    try ip("netns", "add", name)
    let bed = DNSTestBed(namespace: Namespace(name: name))
    defer {
        bed.stopProcesses()
        removeConfiguration(of: name)
        deleteTestNamespace(name, file: file, line: line)
        if FileManager.default.fileExists(atPath: bed.configurationDirectory) {
            XCTFail("\(bed.configurationDirectory) is still there after removing it", file: file, line: line)
        }
    }
    try bed.namespace.ip("link", "set", "lo", "up")
    try bed.namespace.ip("addr", "add", "\(DNSTestBed.serverAddress)/32", "dev", "lo")
    try body(bed)
}

private func removeConfiguration(of name: String) {
    let directory = "/etc/netns/\(name)"
    if FileManager.default.fileExists(atPath: directory) {
        try? FileManager.default.removeItem(atPath: directory)
    }
    if madeNetnsDirectory.withLock({ $0 }) {
        rmdir("/etc/netns")  // only when empty: other namespaces' files stay
    }
}

/// Deletes the `nrx-dns-PID-N` namespaces and `/etc/netns/nrx-dns-PID-N` directories of runs that
/// died before their cleanup: whose process is gone and that are older than any run lasts (the age
/// guards against a run in another PID namespace, whose PID means nothing here). Once per process.
private func removeDNSNamespacesOfDeadRuns() {
    let first = sweptDeadRuns.withLock { swept -> Bool in
        defer { swept = true }
        return !swept
    }
    guard first else { return }
    func isOrphan(_ name: String, stamp path: String) -> Bool {
        let fields = name.split(separator: "-")
        guard name.hasPrefix("nrx-dns-"), fields.count > 2, let pid = Int32(fields[2]), pid != getpid() else { return false }
        guard kill(pid, 0) != 0 && errno == ESRCH else { return false }
        var info = stat()
        return stat(path, &info) == 0 && time(nil) - info.st_mtim.tv_sec > 600
    }
    let listed = ((try? ip("netns", "list")) ?? "").split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    for name in listed where isOrphan(name, stamp: "/run/netns/\(name)") {
        _ = try? ip("netns", "del", name)
    }
    let directories = (try? FileManager.default.contentsOfDirectory(atPath: "/etc/netns")) ?? []
    for name in directories where isOrphan(name, stamp: "/etc/netns/\(name)") && !listed.contains(name) {
        try? FileManager.default.removeItem(atPath: "/etc/netns/\(name)")
    }
}

/// A namespace for host-name tests, with its resolver files and the servers started in it.
final class DNSTestBed {
    /// Where the test servers listen: a /32 on the namespace's `lo`, so it answers whatever the
    /// links do, and glibc's fallback without a `nameserver` line (127.0.0.1) finds nobody.
    static let serverAddress = "10.53.0.53"

    let namespace: Namespace
    private var processes: [NamespaceProcess] = []

    init(namespace: Namespace) {
        self.namespace = namespace
    }

    var name: String { namespace.name }
    /// `/etc/netns/NAME`: what `ip netns exec` (and the library) put in place of `/etc`'s files.
    var configurationDirectory: String { "/etc/netns/\(name)" }

    // MARK: - Servers

    /// Starts dnsmasq on `serverAddress` with `records`, authoritative for `testZone`; returns
    /// once it listens. `stop()` on the result kills it.
    ///
    /// dnsmasq closes every descriptor it inherits, which Foundation's `Process` takes for the
    /// child's exit (it then blocks in `waitpid` on it, and every later `Process` with it). So a
    /// shell stays between: it holds the descriptors, prints dnsmasq's pid, and kills dnsmasq when
    /// it gets SIGTERM.
    @discardableResult
    func startDNSServer(_ records: [DNSRecord]) throws -> NamespaceProcess {
        var options = ["--local=/\(testZone)/"]
        for record in records {
            for address in record.addresses {
                options.append("--host-record=\(record.name),\(address)")
            }
        }
        return try startDnsmasq(listeningOn: Self.serverAddress, options)
    }

    /// Starts dnsmasq on `address`:53 with `options` besides the bed's own (no resolv.conf, no
    /// hosts file, no cache); returns once it listens. `stop()` on the result kills it.
    @discardableResult
    func startDnsmasq(listeningOn address: String, _ options: [String]) throws -> NamespaceProcess {
        let dnsmasq = [
            dnsmasqExecutable, "--no-daemon", "--no-resolv", "--no-hosts", "--bind-interfaces",
            "--listen-address=\(address)", "--port=53", "--conf-file=/dev/null",
            "--cache-size=0", "--log-facility=-",
        ] + options
        // With setpriv, both die with their parent: the shell with the test's thread, dnsmasq with the shell.
        let dieWithParent = setprivExecutable.map { [$0, "--pdeathsig", "KILL", "--"] } ?? []
        let script = """
            "$@" &
            server=$!
            trap 'kill -KILL $server; wait $server; exit 0' TERM
            echo "$server"
            wait $server
            """
        let server = try start(dieWithParent + ["/bin/sh", "-c", script, "sh"] + dieWithParent + dnsmasq,
                               description: "dnsmasq", stopSignal: SIGTERM)
        guard server.lines.wait(until: "the shell printed dnsmasq's pid", { !$0.isEmpty }), let pid = Int32(server.lines.all[0]) else {
            throw CommandFailure(commandLine: "ip netns exec \(name) sh -c <dnsmasq>", status: server.exitStatus ?? -1,
                                 standardError: server.standardError)
        }
        try waitUntil("dnsmasq listens on \(address):53 in \(name)") {
            guard server.isRunning else {
                throw CommandFailure(commandLine: "ip netns exec \(name) dnsmasq ...", status: server.exitStatus ?? -1,
                                     standardError: server.standardError)
            }
            return NamespaceProcess.listensOnUDP(pid: pid, address: address, port: 53)
        }
        return server
    }

    /// Starts a name server that reads every query on `serverAddress:53` and never answers; it
    /// prints `query` for each one it gets. Returns once it is bound.
    func startSilentServer() throws -> NamespaceProcess {
        let script = """
            import os, select, socket, sys
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind((sys.argv[1], 53))
            print("ready", flush=True)
            while True:
                ready, _, _ = select.select([s, sys.stdin], [], [])
                if sys.stdin in ready and not os.read(0, 4096):
                    break  # end of stdin: the test is over
                if s in ready:
                    s.recvfrom(4096)
                    print("query", flush=True)
            """
        let server = try start([pythonExecutable!, "-c", script, Self.serverAddress], description: "silent name server")
        guard server.lines.wait(until: "the silent name server is bound", { $0.contains("ready") }) else {
            throw CommandFailure(commandLine: "ip netns exec \(name) python3 <silent server>", status: server.exitStatus ?? -1,
                                 standardError: server.standardError)
        }
        return server
    }

    private func start(_ command: [String], description: String, stopSignal: Int32 = SIGKILL) throws -> NamespaceProcess {
        let process = try NamespaceProcess(executable: ipExecutable, arguments: ["netns", "exec", name] + command,
                                           description: description, stopSignal: stopSignal)
        processes.append(process)
        return process
    }

    /// Starts a process of the test's own (the `reachability` command, say) that goes with the bed.
    func startProcess(_ executable: String, _ arguments: [String], description: String) throws -> NamespaceProcess {
        let process = try NamespaceProcess(executable: executable, arguments: arguments, description: description)
        processes.append(process)
        return process
    }

    /// Kills every process this bed started and waits for them.
    func stopProcesses() {
        processes.forEach { $0.stop() }
        processes.removeAll()
    }

    // MARK: - Files under /etc/netns/NAME

    /// Writes `/etc/netns/NAME/FILE` by writing a new file next to it and renaming it over the old
    /// one (as resolvconf and systemd-resolved do). - Returns: the inode of the new file.
    /// - Parameter fileName: a path relative to `/etc/netns/NAME`, in an existing directory.
    @discardableResult
    func replaceByRename(_ fileName: String, with text: String) throws -> UInt64 {
        try makeDirectory()
        let path = "\(configurationDirectory)/\(fileName)"
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).new").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else {
            throw CommandFailure(commandLine: "rename \(temporary) \(path)", status: errno, standardError: String(cString: strerror(errno)))
        }
        return try inode(of: path)
    }

    /// Rewrites `/etc/netns/NAME/FILE` in place (truncated and written through the same inode, as
    /// an editor that saves in place). - Returns: the inode, which the test can check did not change.
    @discardableResult
    func rewriteInPlace(_ fileName: String, with text: String) throws -> UInt64 {
        let path = "\(configurationDirectory)/\(fileName)"
        guard let handle = FileHandle(forUpdatingAtPath: path) else {
            throw CommandFailure(commandLine: "open \(path)", status: errno, standardError: String(cString: strerror(errno)))
        }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        return try inode(of: path)
    }

    /// `/etc/netns/NAME/resolv.conf` naming one server.
    static func resolvConf(nameServer: String, options: String? = nil) -> String {
        "nameserver \(nameServer)\n" + (options.map { "options \($0)\n" } ?? "")
    }

    func inode(of path: String) throws -> UInt64 {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CommandFailure(commandLine: "stat \(path)", status: errno, standardError: String(cString: strerror(errno)))
        }
        return UInt64(info.st_ino)
    }

    private func makeDirectory() throws {
        try makeNetnsDirectory()
        try FileManager.default.createDirectory(atPath: configurationDirectory, withIntermediateDirectories: true)
    }

    /// Makes `/etc/netns` if it is missing (it is removed again, once empty, when the bed goes).
    func makeNetnsDirectory() throws {
        if !FileManager.default.fileExists(atPath: "/etc/netns") {
            try FileManager.default.createDirectory(atPath: "/etc/netns", withIntermediateDirectories: true)
            madeNetnsDirectory.withLock { $0 = true }
        }
    }

    // MARK: - The resolver, independently of the library

    /// What `getaddrinfo(NAME, NULL, {AF_UNSPEC, SOCK_STREAM})` returns in this namespace under
    /// `ip netns exec` (which puts `/etc/netns/NAME/*` in place of `/etc`'s): the resolver's order,
    /// without duplicates; empty when the name does not resolve.
    ///
    /// Asked three times: a test that compares orders needs one the resolver keeps (dnsmasq rotates
    /// the records of a name, glibc's RFC 6724 sort may put them back in a fixed order).
    func resolverOrder(of host: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let script = """
            import socket, sys
            try:
                found = socket.getaddrinfo(sys.argv[1], None, socket.AF_UNSPEC, socket.SOCK_STREAM)
            except socket.gaierror:
                found = []
            print(" ".join(dict.fromkeys(entry[4][0] for entry in found)))
            """
        var answers: [[String]] = []
        for _ in 0..<3 {
            let output = try runCommand(ipExecutable, ["netns", "exec", name, pythonExecutable!, "-c", script, host])
            guard output.status == 0 else {
                throw CommandFailure(commandLine: "ip netns exec \(name) python3 <getaddrinfo> \(host)", status: output.status,
                                     standardError: output.standardError)
            }
            answers.append(output.standardOutput.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
        }
        if Set(answers.map { $0.joined(separator: " ") }).count != 1 {
            XCTFail("test setup: the resolver gives \(host) in no fixed order: \(answers)", file: file, line: line)
        }
        return answers[0]
    }
}
