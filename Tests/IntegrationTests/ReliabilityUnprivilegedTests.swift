import Foundation
import NetworkReachability
import XCTest

/// Issue 8, item 6: unprivileged use. The command and a library client (the `nw-monitor` example)
/// work as an ordinary user with no capabilities, in that user's own namespace, and say clearly
/// when `--netns` needs rights the user does not have.
///
/// The user is `nobody` (65534), made with `setpriv --reuid=65534 --regid=65534 --clear-groups
/// --inh-caps=-all`; "its own namespace" is a user and network namespace of its own
/// (`unshare -rn`, which needs `user.max_user_namespaces` > 0), in which it may add a veth pair
/// and routes; or a namespace root made (`ip netns exec`), in which it holds no capability at all.
final class ReliabilityUnprivilegedTests: XCTestCase {
    private static let nobody = "65534"

    /// `setpriv` arguments that drop to nobody with no capabilities.
    private static let dropToNobody = ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--inh-caps=-all"]

    /// A shell script that makes the user's own network look like a LAN: lo up, v0 10.9.0.2/24
    /// with its peer up, a default route via 10.9.0.1.
    private static let ownLAN = """
        ip link set lo up && ip link add v0 type veth peer name v0p && ip link set v0 addrgenmode none && \
        ip link set v0p addrgenmode none && ip addr add 10.9.0.2/24 dev v0 && ip link set v0p up && \
        ip link set v0 up && ip route add default via 10.9.0.1
        """

    private func tools() throws -> (setpriv: String, unshare: String, shell: String) {
        guard geteuid() == 0 else { throw XCTSkip("needs root to become nobody (setpriv)") }
        func find(_ name: String) throws -> String {
            guard let path = ["/usr/bin/\(name)", "/bin/\(name)", "/usr/sbin/\(name)", "/sbin/\(name)"]
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                throw XCTSkip("no \(name) (util-linux)")
            }
            return path
        }
        return (try find("setpriv"), try find("unshare"), try find("sh"))
    }

    /// Checks that nobody can run `executable` (the build directory may be private), and that it
    /// may make a user namespace; skips otherwise.
    private func requireNobodyCanRun(_ executable: String) throws {
        let (setpriv, unshare, _) = try tools()
        let access = try runCommand(setpriv, Self.dropToNobody + ["test", "-x", executable])
        if access.status != 0 {
            throw XCTSkip("user nobody cannot run \(executable) (a private build directory?)")
        }
        let userNamespace = try runCommand(setpriv, Self.dropToNobody + [unshare, "-rn", "true"])
        if userNamespace.status != 0 {
            throw XCTSkip("user nobody cannot make a user namespace here: \(userNamespace.standardError)")
        }
    }

    /// Runs `command` as nobody in a user and network namespace of its own, after `ownLAN`.
    private func asNobodyInOwnNamespace(_ command: [String]) throws -> CommandOutput {
        let (setpriv, unshare, shell) = try tools()
        let script = Self.ownLAN + " && exec \"$@\""
        return try runCommand(setpriv, Self.dropToNobody + [unshare, "-rn", shell, "-c", script, "sh"] + command)
    }

    func testCommandAndLibraryClient_workAsNobody_inItsOwnUserAndNetworkNamespace() throws {
        let reachability = try builtExecutable("reachability")
        let example = try builtExecutable("nw-monitor")
        try requireNobodyCanRun(reachability)
        // The process's own namespace, an on-link address, an address via the default route
        let loopback = try asNobodyInOwnNamespace([reachability, "check", "127.0.0.1"])
        XCTAssertEqual(loopback.status, 0, "check 127.0.0.1: \(loopback.standardError)")
        XCTAssertTrue(loopback.standardOutput.contains("127.0.0.1"), loopback.standardOutput)
        XCTAssertEqual(loopback.standardError, "")
        let byPath = try asNobodyInOwnNamespace([reachability, "check", "--json", "--netns", "/proc/self/ns/net", "10.9.0.5"])
        XCTAssertEqual(byPath.status, 0, "check --netns /proc/self/ns/net: \(byPath.standardError)")
        XCTAssertTrue(byPath.standardOutput.contains(#""flags":["reachable","isDirect"]"#), byPath.standardOutput)
        let remote = try asNobodyInOwnNamespace([reachability, "check", "--json", "192.0.2.1"])
        XCTAssertEqual(remote.status, 0, "check 192.0.2.1: \(remote.standardError)")
        XCTAssertTrue(remote.standardOutput.contains(#""gateways":["10.9.0.1"]"#), remote.standardOutput)
        // A library client: NWPathMonitor's way, one update
        let client = try asNobodyInOwnNamespace([example, "--updates", "1", "--timeout", "20"])
        XCTAssertEqual(client.status, 0, "nw-monitor: \(client.standardError)")
        XCTAssertTrue(client.standardOutput.hasPrefix("Path: satisfied, Reachable via WiFi, interfaces: v0"), client.standardOutput)
    }

    func testWatch_asNobody_inItsOwnNamespace_seesKernelEvents() throws {
        let reachability = try builtExecutable("reachability")
        try requireNobodyCanRun(reachability)
        let (setpriv, unshare, shell) = try tools()
        // Given `watch` as nobody in its own namespace (setpriv, unshare and sh exec into it: one pid)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: setpriv)
        process.arguments = Self.dropToNobody + [unshare, "-rn", shell, "-c", Self.ownLAN + " && exec \"$@\"", "sh",
                                                 reachability, "watch", "--json", "--count", "2", "--timeout", "20", "10.9.0.5"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
        }
        let lines = Recorder<String>()
        let reader = output.fileHandleForReading
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending = Data(pending[pending.index(after: newline)...])
                }
            }
            finished.signal()
        }
        XCTAssertTrue(lines.wait(forCount: 1), "the first record: \(String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self))")
        // When root drops the carrier in that namespace
        let flip = try runCommand("/usr/bin/nsenter", ["--net=/proc/\(process.processIdentifier)/ns/net", ipExecutable,
                                                       "link", "set", "v0p", "down"])
        XCTAssertEqual(flip.status, 0, flip.standardError)
        // Then the unprivileged watch reports it and exits after its second record
        XCTAssertEqual(finished.wait(timeout: .now() + integrationTimeout), .success, "watch ended")
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(lines.count, 2, "\(lines.all)")
        XCTAssertTrue(lines.all.first?.contains(#""flags":["reachable","isDirect"]"#) == true, "\(lines.all)")
        XCTAssertTrue(lines.all.last?.contains(#""flags":["reachable","connectionRequired","isDirect"]"#) == true, "\(lines.all)")
    }

    func testNetnsOfAnotherNamespace_asNobody_saysItNeedsRights_inOneLine_exitStatus2() throws {
        let reachability = try builtExecutable("reachability")
        try requireNobodyCanRun(reachability)
        let (setpriv, _, _) = try tools()
        try withReliabilityNamespace { ns in
            try ns.addLAN(.ipv4, linkLocal: false)
            // An unprivileged process inside the namespace root made: its own namespace works
            let inside = try runCommand(ipExecutable, ["netns", "exec", ns.name, setpriv] + Self.dropToNobody
                                        + [reachability, "check", "10.9.0.5"])
            XCTAssertEqual(inside.status, 0, "check inside \(ns.name) as nobody: \(inside.standardError)")
            // But --netns of a namespace it may not enter (by name, by path; from the host's namespace
            // and from a user namespace of its own) is refused, in one line that says what is needed
            let path = "/run/netns/\(ns.name)"
            let attempts: [(String, [String])] = [
                ("by name", [setpriv] + Self.dropToNobody + [reachability, "check", "--netns", ns.name, "10.9.0.5"]),
                ("by path", [setpriv] + Self.dropToNobody + [reachability, "check", "--netns", path, "10.9.0.5"]),
                ("watch by name", [setpriv] + Self.dropToNobody + [reachability, "watch", "--netns", ns.name, "--count", "1", "10.9.0.5"]),
            ]
            for (what, command) in attempts {
                let result = try runCommand(command[0], Array(command.dropFirst()))
                let message = result.standardError.trimmingCharacters(in: .newlines)
                XCTAssertEqual(result.status, 2, "\(what): exit status; stderr: \(message)")
                XCTAssertEqual(result.standardOutput, "", what)
                XCTAssertEqual(message.split(separator: "\n").count, 1, "\(what): one line: \(message)")
                XCTAssertTrue(message.contains("cannot enter network namespace '\(path)'"), "\(what): \(message)")
                XCTAssertTrue(message.contains("EPERM"), "\(what): \(message)")
                XCTAssertTrue(message.contains("CAP_SYS_ADMIN"), "\(what): says which right is missing: \(message)")
            }
            let fromOwn = try asNobodyInOwnNamespace([reachability, "check", "--netns", ns.name, "10.9.0.5"])
            XCTAssertEqual(fromOwn.status, 2, "from its own user namespace: \(fromOwn.standardError)")
            XCTAssertTrue(fromOwn.standardError.contains("EPERM"), fromOwn.standardError)
            print("reliability unprivileged: --netns as nobody says: \(fromOwn.standardError.trimmingCharacters(in: .newlines))")
        }
    }
}
