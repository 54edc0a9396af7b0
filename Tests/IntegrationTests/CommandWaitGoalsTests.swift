import Dispatch
import Foundation
import XCTest

/// `reachability wait`'s goals beside its targets: `--interface NAME` (routable: up, with carrier
/// and an address beyond link-local), `-4`/`-6` (that family's general path), the finite default
/// timeout and `--timeout forever`; and the timeout's line, which names each unmet goal and why.
/// The namespace: v0 (10.9.0.1/24, an IPv4 default route) is routable; its peer v1 has no address.
extension CommandWaitTests {
    func testWait_interface_whenRoutable_exitsZeroAtOnce() throws {
        let result = try reachability(["wait", "--netns", namespace, "--timeout", "20", "--interface", "v0"])
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
        XCTAssertEqual(result.stderr, "")
    }

    func testWait_interface_whenItNeverGetsThere_namesEachInterfaceAndWhy() throws {
        let result = try reachability(["wait", "--netns", namespace, "--timeout", "0.5",
                                       "--interface", "v0", "--interface", "v1", "--interface", "nope", "--interface", "lo"])
        XCTAssertEqual(result.status, 1, "stderr: \(result.stderr)")
        XCTAssertEqual(result.stderr, "reachability: no interface nope exists yet; waiting for it to appear\n"
                       + "reachability: timed out after 0.5 s: interface v1 not routable (no address); "
                       + "interface nope not routable (no such interface); "
                       + "interface lo not routable (a loopback interface carries nothing off the host)\n")
    }

    /// A name no interface has (a typo, or one yet to come) is said at once, and waited for.
    func testWait_interfaceThatDoesNotExist_saysSoAtOnce_andKeepsWaitingUntilItAppears() throws {
        let wait = try startReachability(["wait", "--netns", namespace, "--timeout", "120", "--interface", "eth9"])
        defer { wait.terminateIfRunning() }

        // Then: one line on standard error at once, long before the timeout, and the wait goes on.
        XCTAssertEqual(wait.stderr.nextLine(before: .now() + 10),
                       "reachability: no interface eth9 exists yet; waiting for it to appear")
        XCTAssertNil(wait.waitForExit(before: .now()), "it keeps waiting: the interface may appear")

        // When: it appears, with carrier and an address
        try ipInNamespace("link", "add", "eth9", "type", "veth", "peer", "name", "eth9p")
        try ipInNamespace("addr", "add", "10.9.9.1/24", "dev", "eth9")
        try ipInNamespace("link", "set", "eth9p", "up")
        try ipInNamespace("link", "set", "eth9", "up")

        // Then: it ends with 0
        XCTAssertEqual(wait.waitForExit(before: .now() + Self.deadline), 0)
    }

    func testWait_interface_whenItGetsCarrierAndAnAddress_exitsZero() throws {
        // Given: v1 is down, without an address.
        try ipInNamespace("link", "set", "v1", "down")
        let wait = try startReachability(["wait", "--verbose", "--netns", namespace, "--timeout", "30", "--interface", "v1"])
        defer { wait.terminateIfRunning() }
        try awaitEngineStarted(wait)

        // When: it comes up with carrier (its peer v0 is up) and an address.
        try ipInNamespace("link", "set", "v1", "up")
        XCTAssertNil(wait.waitForExit(before: .now()), "up without an address is not routable")
        try ipInNamespace("addr", "add", "10.9.1.1/24", "dev", "v1")

        // Then: it ends with 0 on that event.
        XCTAssertEqual(wait.waitForExit(before: .now() + Self.deadline), 0)
    }

    func testWait_interface_down_sayLinkDown_noCarrier_sayNoCarrier() throws {
        try ipInNamespace("addr", "add", "10.9.1.1/24", "dev", "v1")
        try ipInNamespace("link", "set", "v1", "down")
        let down = try reachability(["wait", "--netns", namespace, "--timeout", "0.3", "--interface", "v1"])
        XCTAssertEqual(down.stderr, "reachability: timed out after 0.3 s: interface v1 not routable (link down)\n")
        try ipInNamespace("link", "set", "v1", "up")
        try ipInNamespace("link", "set", "v0", "down")
        let noCarrier = try reachability(["wait", "--netns", namespace, "--timeout", "0.3", "--interface", "v1"])
        XCTAssertEqual(noCarrier.stderr, "reachability: timed out after 0.3 s: interface v1 not routable (no carrier)\n")
    }

    func testWait_families_ipv4Routed_ipv6Not() throws {
        let ipv4 = try reachability(["wait", "--netns", namespace, "--timeout", "20", "-4"])
        XCTAssertEqual(ipv4.status, 0, "stderr: \(ipv4.stderr)")
        let both = try reachability(["wait", "--netns", namespace, "--timeout", "0.5", "-4", "--ipv6"])
        XCTAssertEqual(both.status, 1)
        XCTAssertEqual(both.stderr, "reachability: timed out after 0.5 s: IPv6 (-6, ::) not reachable (no route)\n")
    }

    func testWait_anyAppliesToTargetsOnly_interfacesStillCount() throws {
        let result = try reachability(["wait", "--any", "--netns", namespace, "--timeout", "0.5", "8.8.8.8", "--interface", "v1"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "reachability: timed out after 0.5 s: interface v1 not routable (no address)\n")
    }

    func testWait_star_isTheGeneralPath() throws {
        let result = try reachability(["wait", "--netns", namespace, "--timeout", "20", "*"])
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
    }

    func testWait_forever_and0_doNotGiveUp() throws {
        for value in ["forever", "0"] {
            let wait = try startReachability(["wait", "--verbose", "--netns", namespace, "--timeout", value, "2001:db8::1"])
            defer { wait.terminateIfRunning() }
            try awaitEngineStarted(wait)
            // Past any timeout a fraction of a second would set, it still waits.
            XCTAssertNil(wait.waitForExit(before: .now() + 1), "--timeout \(value) waits for ever")
        }
    }

    func testWait_withoutTimeout_helpStatesTheDefault() throws {
        let help = try reachability(["help", "wait"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(words.contains("0 or 'forever' waits for ever; default: 60."), help.stdout)
        XCTAssertTrue(help.stdout.contains("--interface <name>"), help.stdout)
        XCTAssertTrue(help.stdout.contains("-4, --ipv4"), help.stdout)
    }
}
