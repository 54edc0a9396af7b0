import CBenchNetlink
import Foundation
import NetworkReachability

/// Why a benchmark could not set itself up.
public struct BenchError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

public enum Bench {
    /// Namespaces need root.
    public static var isRoot: Bool { getuid() == 0 }

    /// Runs a command, waits, and returns its standard output; throws on a nonzero exit.
    @discardableResult
    public static func run(_ arguments: [String], input: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let stdin = Pipe()
        if input != nil { process.standardInput = stdin }
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        // Read both pipes before waiting: a large output on either must not block the child.
        let errorBox = DataBox()
        let reader = Thread { errorBox.data = errors.fileHandleForReading.readDataToEndOfFile(); errorBox.done.signal() }
        reader.start()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        errorBox.done.wait()
        let err = errorBox.data
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("\(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(String(decoding: err, as: UTF8.self).prefix(400))")
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The prefix of every namespace a benchmark makes: `NRX_BENCH_PREFIX` (set by scripts/bench,
    /// which deletes `NRX_BENCH_PREFIX*` on its own exit too), else `nrx-bench-PID-`.
    public static var namespacePrefix: String {
        if let prefix = ProcessInfo.processInfo.environment["NRX_BENCH_PREFIX"], prefix.hasPrefix("nrx-bench-") {
            return prefix
        }
        return "nrx-bench-\(getpid())-"
    }

    /// Parses dotted IPv4 into network byte order.
    public static func ipv4(_ text: String) -> UInt32 {
        var address = in_addr()
        precondition(inet_pton(AF_INET, text, &address) == 1, "bad IPv4 address \(text)")
        return address.s_addr
    }

    /// Host-order integer to network-order address.
    public static func ipv4(hostOrder value: UInt32) -> UInt32 { value.bigEndian }

    /// The i-th distinct address target, as the issue asks: 10.(i>>8).(i&255).1 (i < 65536).
    public static func distinctTarget(_ i: Int) -> String { "10.\(i >> 8).\(i & 255).1" }
}

private final class DataBox: @unchecked Sendable {
    var data = Data()
    let done = DispatchSemaphore(value: 0)
}

/// A throwaway network namespace (`ip netns add nrx-bench-...`), deleted by `delete()`, by
/// `deinit`, at exit, and on a fatal signal (the C side keeps the names for the signal handler).
public final class BenchNamespace: @unchecked Sendable {
    public let name: String
    public var path: String { "/run/netns/\(name)" }
    public var networkNamespace: NetworkNamespace { .named(name) }
    private var deleted = false
    /// (st_dev, st_ino) of /run/netns/NAME once made: another process may delete the name (the
    /// project's scripts/test deletes every nrx-* namespace that appeared during its run).
    private var identity: (UInt64, UInt64)?

    /// lo up; veth v0/v1 up; 10.77.0.1/24 on v0; default via 10.77.0.2 (the shared harness's layout).
    public static let standardSetup = [
        "link set lo up",
        "link add v0 type veth peer name v1",
        "link set v0 up",
        "link set v1 up",
        "addr add 10.77.0.1/24 dev v0",
        "route add default via 10.77.0.2",
    ]

    /// Uses a namespace someone else made (and will delete): nothing is deleted here.
    public init(existing name: String) {
        self.name = name
        self.deleted = true
    }

    /// Makes the namespace and runs `setup` in it with `ip -n NAME -batch -`.
    public init(purpose: String, setup: [String] = BenchNamespace.standardSetup, ipv6: Bool = true) throws {
        guard Bench.isRoot else { throw BenchError("network namespaces need root") }
        nrxb_install_cleanup_handlers()
        name = Bench.namespacePrefix + purpose
        _ = nrxb_netns_delete(name)  // a leftover of a killed run with the same pid
        try Bench.run(["ip", "netns", "add", name])
        _ = nrxb_register_netns(name)
        do {
            var sysctls = [
                "net.ipv6.conf.all.accept_dad=0", "net.ipv6.conf.default.accept_dad=0",
                "net.ipv6.conf.default.router_solicitations=0",
            ]
            if !ipv6 { sysctls += ["net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1"] }
            try Bench.run(["ip", "netns", "exec", name, "sysctl", "-q", "-w"] + sysctls)
            try batch(setup)
            identity = Self.identity(of: path)
        } catch {
            delete()
            throw error
        }
    }

    private static func identity(of path: String) -> (UInt64, UInt64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// Whether /run/netns/NAME is still the namespace made here (nil identity: not made here).
    public var isStillOurs: Bool {
        guard let identity else { return true }
        guard let now = Self.identity(of: path) else { return false }
        return now == identity
    }

    /// A sentence for errors: why a scenario may have stopped seeing changes.
    public var vanishNote: String {
        isStillOurs ? "" : " (namespace \(name) was deleted or replaced by another process while in use:"
            + " scripts/test deletes every nrx-* namespace that appears during its run)"
    }

    /// Runs iproute2 commands in the namespace, one per line.
    public func batch(_ lines: [String]) throws {
        guard !lines.isEmpty else { return }
        try Bench.run(["ip", "-n", name, "-batch", "-"], input: lines.joined(separator: "\n") + "\n")
    }

    /// `ip -n NAME -batch FILE` (for 100k routes).
    public func batch(file: String) throws {
        try Bench.run(["ip", "-n", name, "-batch", file])
    }

    /// The index of a link in the namespace.
    public func ifindex(of link: String) throws -> Int {
        let index = nrxb_ifindex_in(path, link)
        guard index > 0 else { throw BenchError("no link \(link) in \(name): errno \(-index)") }
        return Int(index)
    }

    public func delete() {
        guard !deleted else { return }
        deleted = true
        _ = nrxb_netns_delete(name)
        nrxb_unregister_netns(name)
    }

    deinit { delete() }
}

/// A raw rtnetlink socket inside a namespace: route changes with no fork per change.
public final class RouteChanger: @unchecked Sendable {
    public let fd: Int32

    public init(namespace: BenchNamespace) throws {
        let fd = nrxb_rtnl_open_in(namespace.path)
        guard fd >= 0 else { throw BenchError("rtnetlink socket in \(namespace.name): errno \(-fd)") }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Adds or deletes `dst/plen via gateway` (gateway "": none) and waits for the ACK.
    public func route(add: Bool, _ destination: String, _ prefixLength: Int, via gateway: String = "", blackhole: Bool = false) throws {
        let rc = nrxb_route4(fd, add ? 1 : 0, Bench.ipv4(destination), Int32(prefixLength),
                             gateway.isEmpty ? 0 : Bench.ipv4(gateway), blackhole ? 1 : 0)
        guard rc == 0 else { throw BenchError("route \(add ? "add" : "del") \(destination)/\(prefixLength): errno \(-rc)") }
    }

    /// The same with the destination in network order, without waiting for the ACK.
    public func routeNoWait(add: Bool, destination: UInt32, _ prefixLength: Int, gateway: UInt32, blackhole: Bool = false) -> Int32 {
        nrxb_route4_nowait(fd, add ? 1 : 0, destination, Int32(prefixLength), gateway, blackhole ? 1 : 0)
    }

    public func drainAcks(_ count: Int) -> Int32 { nrxb_drain_acks(fd, Int32(count)) }

    /// Sets a link up or down (the harness's link flap).
    public func link(_ ifindex: Int, up: Bool) throws {
        let rc = nrxb_link_set_up(fd, Int32(ifindex), up ? 1 : 0)
        guard rc == 0 else { throw BenchError("link \(ifindex) \(up ? "up" : "down"): errno \(-rc)") }
    }

    /// Adds or removes an IPv4 address (the harness's address flap).
    public func address(add: Bool, _ address: String, _ prefixLength: Int, ifindex: Int) throws {
        let rc = nrxb_addr4(fd, add ? 1 : 0, Int32(ifindex), Bench.ipv4(address), Int32(prefixLength))
        guard rc == 0 else { throw BenchError("address \(add ? "add" : "del") \(address): errno \(-rc)") }
    }

    /// The harness's route flap: the default route via 10.77.0.2.
    public func defaultRoute(add: Bool) throws {
        try route(add: add, "0.0.0.0", 0, via: "10.77.0.2")
    }
}
