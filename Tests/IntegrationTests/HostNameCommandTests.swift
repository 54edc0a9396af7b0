import Foundation
import NetworkReachability
import XCTest

/// Issue 3, "Done when": `reachability check --json --netns NS HOST` run against a namespace with
/// dnsmasq gives the flags of the best resolved address, the `addresses` in the resolver's order,
/// and the failure reasons; `watch` follows resolv.conf and the network; bad names exit 2 with one
/// line on stderr.
final class HostNameCommandTests: XCTestCase {
    /// How long one run of the binary may take on a loaded machine before the test fails.
    private static let deadline: TimeInterval = 30

    func testCheckJSON_printsTheBestFlags_andTheAddressesInTheResolversOrder() throws {
        // Given a name with a reachable, an unreachable and a disconnected address
        try withDNSLAN(requiring: [.dnsmasq, .python],
                       serving: [DNSRecord("multi.nrx.test", LAN.onLink, LAN.refused, LAN.disconnected6)],
                       given: { try $0.addDisconnectedLink() }) { bed in
            let order = try bed.resolverOrder(of: "multi.nrx.test")
            XCTAssertNotEqual(order.first, LAN.onLink, "test setup: the best address must not come first: \(order)")
            // When checked
            let result = try check(bed, "multi.nrx.test")
            // Then it is reachable by the on-link address, and lists all three in the resolver's order
            XCTAssertEqual(result.status, 0, "reachable exits 0; stderr: \(result.standardError)")
            let record = try parseRecord(result.standardOutput)
            XCTAssertEqual(record["target"] as? String, "multi.nrx.test")
            XCTAssertEqual(record["addresses"] as? [String], order, result.standardOutput)
            XCTAssertEqual(record["flags"] as? [String], ["reachable", "isDirect"], result.standardOutput)
            let path = try XCTUnwrap(record["path"] as? [String: Any])
            XCTAssertEqual(path["status"] as? String, "satisfied")
            XCTAssertEqual((path["interface"] as? [String: Any])?["name"] as? String, "v0", result.standardOutput)
            XCTAssertEqual(path["gateways"] as? [String], [], result.standardOutput)
        }
    }

    func testCheckJSON_ofNamesThatDoNotResolve_saysWhy_andExitsOne() throws {
        try withDNSLAN(serving: [DNSRecord("known.nrx.test", LAN.onLink)]) { bed in
            // Control: the namespace's server is the one asked, and it answers
            var result = try check(bed, "known.nrx.test")
            XCTAssertEqual(result.status, 0, "control: a name the server knows; stderr: \(result.standardError)")
            XCTAssertEqual(try parseRecord(result.standardOutput)["addresses"] as? [String], [LAN.onLink], result.standardOutput)

            // NXDOMAIN
            result = try check(bed, "missing.nrx.test")
            XCTAssertEqual(result.status, 1, "not reachable exits 1; stderr: \(result.standardError)")
            var record = try parseRecord(result.standardOutput)
            XCTAssertEqual(record["flags"] as? [String], [], result.standardOutput)
            XCTAssertEqual(record["addresses"] as? [String], [], "an empty list, not absent: \(result.standardOutput)")
            var path = try XCTUnwrap(record["path"] as? [String: Any])
            XCTAssertEqual(path["status"] as? String, "unsatisfied")
            XCTAssertEqual(path["unsatisfiedReason"] as? String, "nameNotResolved", result.standardOutput)
            XCTAssertEqual(path["supportsDNS"] as? Bool, false, "no interface carries the path: \(result.standardOutput)")

            // No name server configured (even though a server would know the name)
            try bed.replaceByRename("resolv.conf", with: "# no name server here\n")
            result = try check(bed, "known.nrx.test")
            XCTAssertEqual(result.status, 1, "not reachable exits 1; stderr: \(result.standardError)")
            record = try parseRecord(result.standardOutput)
            XCTAssertEqual(record["addresses"] as? [String], [], result.standardOutput)
            path = try XCTUnwrap(record["path"] as? [String: Any])
            XCTAssertEqual(path["unsatisfiedReason"] as? String, "noDNSServer", result.standardOutput)
            XCTAssertEqual(path["supportsDNS"] as? Bool, false, result.standardOutput)
        }
    }

    func testCheckJSON_ofAnIPLiteral_hasNoAddresses() throws {
        try withDNSLAN(requiring: []) { bed in
            let result = try check(bed, LAN.onLink)
            XCTAssertEqual(result.status, 0, "stderr: \(result.standardError)")
            let record = try parseRecord(result.standardOutput)
            XCTAssertNil(record["addresses"], "an address target has no 'addresses': \(result.standardOutput)")
            XCTAssertEqual(record["flags"] as? [String], ["reachable", "isDirect"], result.standardOutput)
        }
    }

    func testCheck_badHostNames_exitTwo_withOneLineOnStderr() throws {
        let label63 = String(repeating: "a", count: 63)
        let name254 = [label63, label63, label63, String(repeating: "b", count: 62)].joined(separator: ".")
        // (the argument, something the error line must say: the input or the rule it broke)
        // A NUL byte cannot be passed in argv; PathMonitor(host:) is tested with it.
        let cases: [(argument: String, says: [String])] = [
            ("", ["''", "empty"]),
            (name254, ["254", "253"]),
            (String(repeating: "a", count: 64) + ".nrx.test", ["64", "63"]),
            ("bad name.nrx.test", ["'bad name.nrx.test'", "' '"]),
            ("b\u{FC}cher.nrx.test", ["'\u{FC}'"]),
            ("printer.nrx.test%v0", ["printer.nrx.test%v0", "scope"]),
        ]
        try withDNSLAN(requiring: []) { bed in
            for (argument, says) in cases {
                let result = try check(bed, argument)
                let shown = argument.count > 40 ? "\(argument.prefix(20))...(\(argument.utf8.count) bytes)" : argument.debugDescription
                XCTAssertEqual(result.status, 2, "\(shown): bad input exits 2; stderr: \(result.standardError)")
                XCTAssertEqual(result.standardOutput, "", "\(shown): nothing on stdout")
                let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: false)
                XCTAssertEqual(lines.count, 2, "\(shown): one line and its newline on stderr: \(result.standardError.debugDescription)")
                for word in says {
                    XCTAssertTrue(result.standardError.contains(word), "\(shown): the error must say \(word.debugDescription): \(result.standardError)")
                }
            }
        }
    }

    func testWatch_followsResolvConf_andTheNetwork() throws {
        try withDNSLAN { bed in
            // Given a live server, but resolv.conf naming a dead one (127.0.0.1: nobody listens)
            try bed.replaceByRename("resolv.conf", with: DNSTestBed.resolvConf(nameServer: "127.0.0.1"))
            try bed.startDNSServer([DNSRecord("live.nrx.test", LAN.onLink)])
            let watch = try bed.startProcess(try CommandTestCase.binaryPath(), ["watch", "--json", "--netns", bed.name, "live.nrx.test"],
                                             description: "reachability watch")
            // Then the first record says the name does not resolve
            guard watch.lines.wait(forCount: 1) else { return }
            let first = try parseRecord(watch.lines.all[0])
            XCTAssertEqual(first["addresses"] as? [String], [], watch.lines.all[0])
            XCTAssertEqual((first["path"] as? [String: Any])?["unsatisfiedReason"] as? String, "nameNotResolved", watch.lines.all[0])

            // When resolv.conf is replaced to name the live server
            try bed.useTestServer()
            // Then a record with the address follows
            watch.lines.wait(until: "a record with the resolved address") { lines in
                guard let last = lines.last, let record = try? parseRecord(last) else { return false }
                return record["addresses"] as? [String] == [LAN.onLink] && record["flags"] as? [String] == ["reachable", "isDirect"]
            }

            // When v0 loses its carrier
            try bed.namespace.ip("link", "set", "v0p", "down")
            // Then a record with a connection required follows
            watch.lines.wait(until: "a record with a connection required") { lines in
                guard let last = lines.last, let record = try? parseRecord(last) else { return false }
                return record["flags"] as? [String] == ["reachable", "connectionRequired", "isDirect"]
                    && record["addresses"] as? [String] == [LAN.onLink]
            }
            XCTAssertEqual(watch.standardError, "", "nothing on stderr")
        }
    }

    // MARK: - Helpers

    /// Runs `reachability check --json --netns NAME ARGUMENT` to its end; `--` keeps a name that
    /// starts with `-` from being read as an option.
    private func check(_ bed: DNSTestBed, _ argument: String) throws -> CommandOutput {
        let process = try bed.startProcess(try CommandTestCase.binaryPath(), ["check", "--json", "--netns", bed.name, "--", argument],
                                           description: "reachability check")
        guard let status = process.waitForExit(within: Self.deadline) else {
            process.stop()
            throw CommandFailure(commandLine: "reachability check --json --netns \(bed.name) -- \(argument)", status: -1,
                                 standardError: "did not finish within \(Self.deadline) s")
        }
        let output = process.lines.all.map { $0 + "\n" }.joined()
        return CommandOutput(status: status, standardOutput: output, standardError: process.standardError)
    }
}
