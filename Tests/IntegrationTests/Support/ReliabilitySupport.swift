import Foundation
@testable import NetworkReachabilityCore
import Synchronization
import XCTest

#if canImport(Glibc)
import Glibc
#endif

// Support for the Reliability* tests (issue 8): their own namespaces (`nrx-rel-PID-N`, which a
// test may delete itself), a flags log that can be waited on against a deadline, and readings of
// the process's own resources (descriptors, threads, memory, CPU time).

// MARK: - Namespaces

private let reliabilityNamespaceSerial = Atomic<Int>(0)

/// Deletes `nrx-rel-PID-...` namespaces left by runs that crashed. Runs once per process.
private let deadReliabilityNamespacesRemoved: Bool = {
    removeNamespacesOfDeadRuns(prefixes: ["nrx-rel-"])
    return true
}()

/// Whether `ip netns list` lists `name`.
func namespaceIsListed(_ name: String) -> Bool {
    ((try? ip("netns", "list")) ?? "").split(separator: "\n").contains { $0.split(separator: " ").first.map(String.init) == name }
}

/// Runs `body` with a fresh network namespace `nrx-rel-PID-N` whose `lo` is up.
///
/// The namespace is deleted on every exit path, unless `body` deleted it itself (the vanish
/// tests do); the test fails if it is still listed afterwards.
/// - Throws: `XCTSkip` when namespaces cannot be made here (not root, no `ip netns`).
func withReliabilityNamespace(
    file: StaticString = #filePath, line: UInt = #line, _ body: (Namespace) throws -> Void
) throws {
    if let problem = namespaceSupportProblem {
        throw XCTSkip(problem, file: file, line: line)
    }
    _ = deadReliabilityNamespacesRemoved
    let serial = reliabilityNamespaceSerial.add(1, ordering: .relaxed).newValue
    let name = "nrx-rel-\(getpid())-\(serial)"
    try ip("netns", "add", name)
    defer {
        // A test may have deleted it itself (a vanishing namespace).
        if namespaceIsListed(name) { deleteTestNamespace(name, file: file, line: line) }
    }
    let namespace = Namespace(name: name)
    try namespace.ip("link", "set", "lo", "up")
    try body(namespace)
}

// MARK: - Batches

/// A temporary file of `ip -batch` commands, removed by `remove()` (call it with `defer`).
struct BatchFile {
    let path: String

    init(_ lines: [String]) throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("nrx-rel-\(getpid())-\(UUID().uuidString).batch").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

// MARK: - A flags log with deadlines

/// The flags a monitor's callback delivered, each with the time it arrived; waits against a
/// deadline of the caller's choosing (the storm test measures convergence in milliseconds).
///
/// `@unchecked Sendable`: `entries` is only touched with `condition` locked.
final class TimedFlagsLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var entries: [(flags: ReachabilityFlags, at: DispatchTime)] = []

    func append(_ flags: ReachabilityFlags) {
        let now = DispatchTime.now()
        condition.lock()
        entries.append((flags, now))
        condition.broadcast()
        condition.unlock()
    }

    var all: [ReachabilityFlags] {
        condition.lock()
        defer { condition.unlock() }
        return entries.map(\.flags)
    }

    var count: Int { all.count }

    /// Waits until the last delivered flags are `flags`, or `deadline` passes.
    /// - Returns: when the delivery that made them last arrived, or nil at the deadline.
    func waitForLast(_ flags: ReachabilityFlags, until deadline: DispatchTime) -> DispatchTime? {
        condition.lock()
        defer { condition.unlock() }
        while entries.last?.flags != flags {
            let remaining = Double(Int64(deadline.uptimeNanoseconds) - Int64(DispatchTime.now().uptimeNanoseconds)) / 1e9
            if remaining <= 0 { return nil }
            _ = condition.wait(until: Date().addingTimeInterval(remaining))
        }
        return entries.last?.at
    }
}

extension DispatchTime {
    /// Milliseconds from `earlier` to this time; negative when this one is earlier.
    func milliseconds(since earlier: DispatchTime) -> Double {
        (Double(uptimeNanoseconds) - Double(earlier.uptimeNanoseconds)) / 1e6
    }
}

// MARK: - The process's own resources

/// Readings of this process's resources from `/proc/self` and the C library.
enum ProcessResources {
    /// Open file descriptors: the entries of `/proc/self/fd`, less the one this reading opened.
    static var openDescriptors: Int {
        entries(of: "/proc/self/fd") - 1
    }

    /// What the open descriptors are, counted by kind (`socket`, `pipe`, `anon_inode:inotify`,
    /// a file's path, ...): for messages that must say what leaked.
    static var descriptorKinds: [String: Int] {
        var kinds: [String: Int] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)") else { continue }
            let kind = target.hasPrefix("socket:") ? "socket" : target.hasPrefix("pipe:") ? "pipe" : target
            kinds[kind, default: 0] += 1
        }
        return kinds
    }

    /// Every open descriptor and what it points at (`socket:[INODE]`, `pipe:[INODE]`, a path).
    static var descriptors: [Int32: String] {
        var table: [Int32: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let fd = Int32(name),
                  let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)") else { continue }
            table[fd] = target
        }
        return table
    }

    /// The descriptors open now that were not open (to the same thing) in `before`: what leaked,
    /// whatever else the process closed meanwhile.
    static func descriptorsOpened(since before: [Int32: String]) -> [Int32: String] {
        descriptors.filter { before[$0.key] != $0.value }
    }

    /// The descriptors that are sockets, by their `socket:[INODE]` link text.
    static var socketInodes: Set<String> {
        var inodes = Set<String>()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return inodes }
        for name in names {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
                  target.hasPrefix("socket:[") else { continue }
            inodes.insert(String(target.dropFirst("socket:[".count).dropLast()))
        }
        return inodes
    }

    /// Threads: the entries of `/proc/self/task`.
    static var threads: Int {
        entries(of: "/proc/self/task")
    }

    /// Resident memory in bytes (`/proc/self/statm`, second field).
    static var residentBytes: Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Resident anonymous memory in bytes (`RssAnon` of `/proc/self/status`): the heap and the
    /// threads' stacks, without the mapped files that RSS also counts.
    static var anonymousResidentBytes: Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("RssAnon:") }) else { return 0 }
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return kilobytes * 1024
    }

    /// Bytes the C allocator has handed out and not got back, all arenas and mmapped blocks
    /// included: the "in use bytes" total that glibc's `malloc_stats()` writes to stderr (which is
    /// redirected to a file for the call). Not noisy like resident memory: freed memory counts at
    /// once. -1 when the C library has no `malloc_stats`.
    static var heapInUse: Int {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_stats") else { return -1 }
        let mallocStats = unsafeBitCast(symbol, to: (@convention(c) () -> Void).self)
        guard let file = tmpfile() else { return -1 }
        defer { fclose(file) }
        fflush(nil)
        let saved = dup(2)
        guard saved >= 0 else { return -1 }
        dup2(fileno(file), 2)
        mallocStats()
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(fileno(file), $0.baseAddress, $0.count, offset) }
            if count <= 0 { break }
            bytes += buffer.prefix(count)
            offset += off_t(count)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        // "Total (incl. mmap):\nsystem bytes     =   N\nin use bytes     =   M\n..."
        guard let total = text.range(of: "Total (incl. mmap):") else { return -1 }
        let line = text[total.upperBound...].split(separator: "\n").first { $0.hasPrefix("in use bytes") }
        return line.flatMap { Int($0.split(separator: "=").last?.trimmingCharacters(in: .whitespaces) ?? "") } ?? -1
    }

    /// CPU time of the whole process so far, user and system, in seconds (`getrusage(RUSAGE_SELF)`).
    static var cpuSeconds: Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    private static func entries(of directory: String) -> Int {
        guard let handle = opendir(directory) else { return -1 }
        defer { closedir(handle) }
        var count = 0
        while let entry = readdir(handle) {
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                bytes[0] == UInt8(ascii: ".") && (bytes[1] == 0 || (bytes[1] == UInt8(ascii: ".") && bytes[2] == 0))
            }
            if !isDot { count += 1 }
        }
        return count
    }
}

/// The `reachability` command and the examples, as built beside the test bundle.
func builtExecutable(_ name: String) throws -> String {
    let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let candidates = [
        bundleDirectory.appendingPathComponent(name).path,
        Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name).path,
        packageRoot.appendingPathComponent(".build/debug/\(name)").path,
    ]
    return try XCTUnwrap(candidates.first { FileManager.default.isExecutableFile(atPath: $0) },
                         "no built '\(name)' in \(candidates); run 'swift build' first")
}

// MARK: - The engine's event socket, seen from outside

/// A netlink socket of this process inside a namespace, as `/proc/net/netlink` there lists it.
struct NetlinkSocketEntry: Sendable {
    /// The socket's port (`nl_pid`): where a unicast to it is addressed.
    var port: UInt32
    /// The first 32 multicast groups it joined, as a bit mask.
    var groups: UInt32
    var inode: String
    /// This process's descriptor of it.
    var descriptor: Int32
}

extension Namespace {
    /// The NETLINK_ROUTE sockets of this process that live in this namespace: `/proc/net/netlink`
    /// read from inside it (`ip netns exec NAME cat`), matched to `/proc/self/fd` by inode.
    func ownRouteSockets() throws -> [NetlinkSocketEntry] {
        let table = try runCommand(ipExecutable, ["netns", "exec", name, "cat", "/proc/net/netlink"])
        guard table.status == 0 else {
            throw CommandFailure(commandLine: "ip netns exec \(name) cat /proc/net/netlink", status: table.status,
                                 standardError: table.standardError)
        }
        var descriptors: [String: Int32] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let fd = Int32(entry),
                  let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
                  target.hasPrefix("socket:[") else { continue }
            descriptors[String(target.dropFirst("socket:[".count).dropLast())] = fd
        }
        // sk Eth Pid Groups Rmem Wmem Dump Locks Drops Inode
        return table.standardOutput.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 10, fields[1] == "0", let port = UInt32(fields[2]),
                  let groups = UInt32(fields[3], radix: 16) else { return nil }
            let inode = String(fields[9])
            guard let fd = descriptors[inode] else { return nil }
            return NetlinkSocketEntry(port: port, groups: groups, inode: inode, descriptor: fd)
        }
    }

    /// The engine's event socket: this process's only route socket in the namespace that joined groups.
    func engineEventSocket(file: StaticString = #filePath, line: UInt = #line) throws -> NetlinkSocketEntry {
        let joined = try ownRouteSockets().filter { $0.groups != 0 }
        XCTAssertEqual(joined.count, 1, "this process's route sockets in \(name) that joined groups: \(joined)", file: file, line: line)
        return try XCTUnwrap(joined.first, file: file, line: line)
    }
}

// MARK: - Knobs for sanitizer and soak runs

/// Settings `scripts/sanitize` and `scripts/soak` pass through the environment.
enum ReliabilityEnvironment {
    /// `thread` or `address` when the tests run under a sanitizer (`NRX_SANITIZER`): timing budgets
    /// are scaled, memory margins do not apply (the sanitizer has its own allocator).
    static var sanitizer: String? {
        ProcessInfo.processInfo.environment["NRX_SANITIZER"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// How much slower than a plain debug build this run is allowed to be (`NRX_TIME_SCALE`, default 1).
    static var timeScale: Double {
        ProcessInfo.processInfo.environment["NRX_TIME_SCALE"].flatMap(Double.init).map { max($0, 1) } ?? 1
    }

    /// An integer setting, or `fallback`.
    static func integer(_ name: String, default fallback: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? fallback
    }
}

// MARK: - A lock ThreadSanitizer can see

/// A value behind an `NSLock` (a pthread mutex, which ThreadSanitizer intercepts).
///
/// For test state that many threads touch under `scripts/sanitize`: on Linux the contended path
/// of `Synchronization.Mutex` (a futex wait in the uninstrumented standard library) is invisible
/// to ThreadSanitizer, which then reports races that are not there (see docs/reliability.md).
///
/// `@unchecked Sendable`: `value` is only touched with `lock` held.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
