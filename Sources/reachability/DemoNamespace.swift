import ReachabilitySystem
import NetworkReachabilityCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The throwaway network namespace of `demo`, `nrx-demo-PID`, and the changes made to it.
///
/// Its network: `v0` holds 10.77.0.2/24, its veth peer `v0p` (in the same namespace) holds none,
/// and the default route goes via 10.77.0.1, an on-link address nobody holds. IPv6 link-local
/// addresses are off (`addrgenmode none`), so the only changes are the demo's own.
struct DemoNamespace: Sendable {
    /// `nrx-demo-PID`: `scripts/netns-cleanup` removes one a killed demo left behind.
    let name: String

    static let hostAddress = "10.77.0.2"
    static let prefixLength = 24
    static let gateway = "10.77.0.1"
    /// An address beyond the gateway, as the internet is.
    static let remote = "192.0.2.10"

    init() {
        name = "nrx-demo-\(getpid())"
    }

    /// Makes the namespace and its network, and arranges that it is removed however the process exits.
    ///
    /// - Throws: `CommandFailure.demoNeedsPrivileges` when the namespace may not be made here,
    ///   `.ipNotInstalled`, or `.ipFailed` (after removing what was made).
    func create() throws(CommandFailure) {
        let outcome = try IPCommand.run(["netns", "add", name])
        guard outcome.succeeded else {
            let message = outcome.message
            if geteuid() != 0 || message.contains("not permitted") || message.contains("Permission denied") {
                throw .demoNeedsPrivileges(detail: message.isEmpty ? outcome.status : message)
            }
            throw .ipFailed(arguments: ["netns", "add", name], status: outcome.status, message: message)
        }
        DemoCleanup.register(name)
        do throws(CommandFailure) {
            try ip("link", "set", "lo", "up")
            try ip("link", "add", "v0", "type", "veth", "peer", "name", "v0p")
            try ip("link", "set", "v0", "addrgenmode", "none")
            try ip("link", "set", "v0p", "addrgenmode", "none")
            try ip("addr", "add", "\(Self.hostAddress)/\(Self.prefixLength)", "dev", "v0")
            try ip("link", "set", "v0p", "up")
            try ip("link", "set", "v0", "up")
            try ip("route", "add", "default", "via", Self.gateway, "dev", "v0")
        } catch {
            DemoCleanup.removeNow()
            throw error
        }
    }

    /// Runs `ip -n NAME ARGUMENTS`.
    func ip(_ arguments: String...) throws(CommandFailure) {
        try IPCommand.check(["-n", name] + arguments)
    }
}

/// Removes the demo's namespace exactly once, on whichever path ends the process first: a
/// signal, `--duration`, or any `exit` (an error, a closed standard output), through `atexit`.
enum DemoCleanup {
    /// The namespace still to remove; nil once removed.
    private static let pending = LockedState<String?>(nil)

    /// Arranges that `name` is removed when the process exits. Call it once, right after making it.
    static func register(_ name: String) {
        pending.withLock { $0 = name }
        atexit {
            _ = DemoCleanup.removeNow()
        }
    }

    /// Removes the namespace now, unless it was already.
    ///
    /// - Returns: the name of the namespace removed now, or nil.
    @discardableResult
    static func removeNow() -> String? {
        let name = pending.withLock { name in
            defer { name = nil }
            return name
        }
        guard let name else { return nil }
        do {
            try IPCommand.check(["netns", "delete", name])
        } catch {
            Failure.printError("\(error); remove it with: scripts/netns-cleanup \(name)")
            return nil
        }
        return name
    }
}
