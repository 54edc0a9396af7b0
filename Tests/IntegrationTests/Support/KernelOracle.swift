import Foundation
import NetworkReachability
import XCTest

/// A link as `ip -o link show` prints it.
struct KernelLink: Sendable, CustomStringConvertible {
    var index: Int
    var name: String
    /// The words between `<` and `>`: UP, LOWER_UP, NO-CARRIER, POINTOPOINT, ...
    var flags: Set<String>
    /// The word after `state`: UP, DOWN, LOWERLAYERDOWN, DORMANT, UNKNOWN, ...
    var state: String
    var description: String

    init(parsing text: String) throws {
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        let words = line.split(separator: " ").map(String.init)
        guard words.count > 2, let index = Int(words[0].dropLast()),
              let open = line.firstIndex(of: "<"), let close = line.firstIndex(of: ">"),
              let stateWord = words.firstIndex(of: "state"), stateWord + 1 < words.count
        else {
            throw CommandFailure(commandLine: "ip -o link show", status: 0, standardError: "cannot parse: \(line)")
        }
        self.index = index
        self.name = String(words[1].dropLast().prefix { $0 != "@" })
        self.flags = Set(line[line.index(after: open)..<close].split(separator: ",").map(String.init))
        self.state = words[stateWord + 1]
        self.description = "\(name) <\(flags.sorted().joined(separator: ","))> state \(state)"
    }

    var isUp: Bool { flags.contains("UP") }
    /// semantics.md: IFF_LOWER_UP, and an operstate that is not down, lowerlayerdown or notpresent.
    var hasCarrier: Bool { flags.contains("LOWER_UP") && !["DOWN", "LOWERLAYERDOWN", "NOTPRESENT"].contains(state) }
    var isDormant: Bool { state == "DORMANT" }
    var isPointToPoint: Bool { flags.contains("POINTOPOINT") }
}

/// What the kernel is asked, in `ip` terms, to judge a target independently of the library.
enum KernelQuery: Sendable, CustomStringConvertible {
    /// `ip route get DESTINATION [oif DEVICE]`.
    case destination(String, outputDevice: String? = nil)
    /// The pair: `ip -o addr show` must list LOCAL, then `ip route get REMOTE from LOCAL`.
    case pair(local: String, remote: String)
    /// The zero address of a family: `ip route get` of a global destination that only a default
    /// route can cover (checked with `fibmatch`).
    case zero(AddressPlan)
    /// The general path: the better of both zero addresses, IPv4 on a tie.
    case general

    var description: String {
        switch self {
        case .destination(let destination, let device): "route get \(destination)\(device.map { " oif \($0)" } ?? "")"
        case .pair(let local, let remote): "route get \(remote) from \(local)"
        case .zero(let plan): "the \(plan) default route (route get \(plan.globalProbe))"
        case .general: "the better default route"
        }
    }
}

/// The flags that semantics.md gives for what `ip` printed, and what it printed.
struct KernelVerdict: Sendable {
    var flags: ReachabilityFlags
    var evidence: String

    /// semantics.md's order of verdicts: reachable, then reachable with a connection required, then none.
    var rank: Int {
        ReachabilityStatus(flags: flags).isReachable ? 2 : (flags.contains(.reachable) ? 1 : 0)
    }
}

private let refusingRouteTypes: Set<String> = ["unreachable", "blackhole", "prohibit", "throw"]
private let routeTypeWords: Set<String> = refusingRouteTypes.union(["local", "broadcast", "anycast", "multicast", "nat"])

extension Namespace {
    /// Judges `query` from `ip`'s output alone, by the tables of semantics.md: the kernel is the oracle.
    func kernelVerdict(_ query: KernelQuery) throws -> KernelVerdict {
        switch query {
        case .destination(let destination, let device):
            return try routeVerdict(routeGetArguments: [destination] + (device.map { ["oif", $0] } ?? []))
        case .pair(let local, let remote):
            let addresses = try ip("-o", "addr", "show")
            let owned = addresses.split(separator: "\n").contains { line in
                let words = line.split(separator: " ")
                return words.contains { $0.hasPrefix(local + "/") }
            }
            guard owned else {
                return KernelVerdict(flags: [], evidence: "`ip -o addr show` lists no \(local)")
            }
            return try routeVerdict(routeGetArguments: [remote, "from", local])
        case .zero(let plan):
            let match = try ipAnswer(["route", "get", "fibmatch", plan.globalProbe])
            if match.status == 0, !match.standardOutput.hasPrefix("default"), !match.standardOutput.contains(" default ") {
                throw CommandFailure(commandLine: "ip -n \(name) route get fibmatch \(plan.globalProbe)", status: 0,
                                     standardError: "test setup error: a route other than the default covers the probe: \(match.standardOutput)")
            }
            return try routeVerdict(routeGetArguments: [plan.globalProbe])
        case .general:
            let v4 = try kernelVerdict(.zero(.ipv4))
            let v6 = try kernelVerdict(.zero(.ipv6))
            let best = v6.rank > v4.rank ? v6 : v4
            return KernelVerdict(flags: best.flags, evidence: "IPv4: \(v4.evidence); IPv6: \(v6.evidence)")
        }
    }

    private func routeVerdict(routeGetArguments arguments: [String]) throws -> KernelVerdict {
        let command = "ip -n \(name) route get \(arguments.joined(separator: " "))"
        let answer = try ipAnswer(["route", "get"] + arguments)
        guard answer.status == 0 else {
            return KernelVerdict(flags: [], evidence: "`\(command)` refused: \(answer.standardError.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        let line = answer.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
        var evidence = "`\(command)` printed `\(line.trimmingCharacters(in: .whitespaces))`"
        let words = line.split(separator: " ").map(String.init)
        let type = words.first.flatMap { routeTypeWords.contains($0) ? $0 : nil } ?? "unicast"
        if refusingRouteTypes.contains(type) {
            return KernelVerdict(flags: [], evidence: evidence)
        }
        if type == "local" {
            return KernelVerdict(flags: [.reachable, .isLocalAddress, .isDirect], evidence: evidence)
        }
        func word(after key: String) -> String? {
            guard let at = words.firstIndex(of: key), at + 1 < words.count else { return nil }
            let next = words[at + 1]
            if (next == "inet" || next == "inet6"), at + 2 < words.count { return words[at + 2] }
            return next
        }
        guard let device = word(after: "dev") else {
            return KernelVerdict(flags: [.reachable], evidence: evidence + " (no device)")
        }
        let link = try self.link(device)
        evidence += "; link \(link)"
        guard link.isUp else {
            return KernelVerdict(flags: [], evidence: evidence)
        }
        let match = try ipAnswer(["route", "get", "fibmatch"] + arguments)
        let markedLinkDown = match.status == 0 && match.standardOutput.split(separator: " ").contains("linkdown")
        if markedLinkDown { evidence += "; fibmatch says linkdown" }
        var flags: ReachabilityFlags = [.reachable]
        if !link.hasCarrier || link.isDormant || markedLinkDown { flags.insert(.connectionRequired) }
        if link.isPointToPoint { flags.insert(.transientConnection) }
        if word(after: "via") == nil { flags.insert(.isDirect) }
        return KernelVerdict(flags: flags, evidence: evidence)
    }
}

/// The path status that semantics.md gives for `flags`: never `requiresConnection` on Linux.
func expectedStatus(for flags: ReachabilityFlags) -> NetworkPath.Status {
    ReachabilityStatus(flags: flags).isReachable ? .satisfied : .unsatisfied
}

/// Checks one row of semantics.md three ways: the kernel's own answer (`ip`), `flags()`, and
/// `currentPath` all agree with the test's expectation.
///
/// - Parameters:
///   - reason: required when `expected` is not a satisfied status.
///   - interface, interfaceType, gateways: checked when given.
func assertTarget(
    _ monitor: PathMonitor, in namespace: Namespace, kernel query: KernelQuery,
    is expected: ReachabilityFlags, reason: NetworkPath.UnsatisfiedReason? = nil,
    interface: String? = nil, interfaceType: NetworkInterface.InterfaceType? = nil, gateways: [String]? = nil,
    file: StaticString = #filePath, line: UInt = #line
) throws {
    let status = expectedStatus(for: expected)
    if status != .satisfied && reason == nil {
        XCTFail("test defect: an unsatisfied expectation must name its reason", file: file, line: line)
    }
    let kernel = try namespace.kernelVerdict(query)
    XCTAssertEqual(kernel.flags, expected,
                   "the kernel's answer for \(query) means \(names(kernel.flags)), not the expected \(names(expected)): \(kernel.evidence)",
                   file: file, line: line)

    let flags = try monitor.flags()
    XCTAssertEqual(flags, expected,
                   "flags() of \(monitor.targetDescription): expected \(names(expected)), got \(names(flags)); kernel: \(kernel.evidence)",
                   file: file, line: line)

    let path = monitor.currentPath
    XCTAssertEqual(path.flags, expected, "currentPath.flags of \(monitor.targetDescription): \(path)", file: file, line: line)
    XCTAssertEqual(path.status, status, "currentPath.status of \(monitor.targetDescription): \(path)", file: file, line: line)
    XCTAssertEqual(path.unsatisfiedReason, status == .satisfied ? nil : reason,
                   "currentPath.unsatisfiedReason of \(monitor.targetDescription): \(path)", file: file, line: line)
    if let interface {
        XCTAssertEqual(path.interface?.name, interface, "currentPath.interface of \(monitor.targetDescription): \(path)", file: file, line: line)
    }
    if let interfaceType {
        XCTAssertEqual(path.interface?.type, interfaceType, "currentPath.interface?.type of \(monitor.targetDescription): \(path)", file: file, line: line)
    }
    if let gateways {
        XCTAssertEqual(path.gateways.map(\.addressString), gateways, "currentPath.gateways of \(monitor.targetDescription): \(path)", file: file, line: line)
    }
}
