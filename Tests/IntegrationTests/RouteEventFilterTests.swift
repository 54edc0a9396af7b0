@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
import ReachabilityModel
import ReachabilityNetlink
import XCTest

/// The kernel drops a route message about no destination a monitor asks about before it reaches
/// the engine's socket (`RouteEventWatch`): such a route costs the process nothing, not even a
/// wake-up. A route whose prefix covers a monitored destination, however wide or narrow, reaches
/// it. (Past the filter's capacity every route message reaches it: `ScopedReevaluationTests`.)
final class RouteEventFilterTests: XCTestCase {
    func testIPv4RoutesBesideATarget_neverReachTheEngine_andRoutesOverItDo() throws {
        // Beside 10.9.0.5: sharing 29 and 31 bits with it, the /32 next to it, a neighbour /15.
        try checkFilter(.ipv4, beside: ["10.9.0.8/30", "10.9.0.6/31", "10.9.0.4/32", "10.10.0.0/15", "198.51.100.0/24"],
                        wider: "10.0.0.0/12", narrower: "10.9.0.4/30")
    }

    func testIPv6RoutesBesideATarget_neverReachTheEngine_andRoutesOverItDo() throws {
        // Beside 2001:db8:9::5: differing in the last word's last bits, in the third word, in the
        // second word's fifteenth bit, in the first word.
        try checkFilter(.ipv6, beside: ["2001:db8:9::8/126", "2001:db8:9::6/127", "2001:db8:9:1::/64", "2001:db8:a::/47",
                                        "2001:db9::/32"],
                        wider: "2001:db8::/33", narrower: "2001:db8:9::4/126")
    }

    /// A monitor of `plan.onLink`: routes `beside` it come and go unread; a `wider` route over it is
    /// read and asked about (it moves nothing: the LAN's prefix is more specific); a `narrower`
    /// unreachable one moves its flags.
    private func checkFilter(_ plan: AddressPlan, beside: [String], wider: String, narrower: String,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        try withNamespace { ns in
            try ns.addLAN(plan, linkLocal: false)
            let monitor = try ns.monitor(plan.onLink)
            let flags = Recorder<ReachabilityFlags>()
            let queue = callbackQueue()
            monitor.setCallback { flags.append($0) }
            monitor.setDispatchQueue(queue)
            flags.wait(forCount: 1)
            let engine = try XCTUnwrap(monitor.engine)
            try waitUntilQuiet(engine)
            let before = try readQueued(engine)

            for prefix in beside {
                try ns.ip(plan.family, "route", "add", prefix, "via", plan.gateway, "dev", "v0")
                try ns.ip(plan.family, "route", "del", prefix, "via", plan.gateway, "dev", "v0")
            }
            let afterBeside = try readQueued(engine)
            XCTAssertEqual(afterBeside.kernelEvents, before.kernelEvents, "routes beside the target reached the engine",
                           file: file, line: line)
            XCTAssertEqual(afterBeside.lookups, before.lookups, file: file, line: line)

            try ns.ip(plan.family, "route", "add", wider, "via", plan.gateway, "dev", "v0")
            let afterWider = try readQueued(engine)
            XCTAssertGreaterThan(afterWider.kernelEvents, afterBeside.kernelEvents, "\(wider) did not reach the engine",
                                 file: file, line: line)
            XCTAssertGreaterThan(afterWider.lookups, afterBeside.lookups, file: file, line: line)

            try ns.ip(plan.family, "route", "add", "unreachable", narrower)
            flags.wait(forCount: 2)
            settle(monitor, queue)
            XCTAssertEqual(flags.all, [[.reachable, .isDirect], []], names(flags.all), file: file, line: line)
        }
    }
}
