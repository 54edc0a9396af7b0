@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// Many route questions in one `sendmsg` get exactly the answers they get one by one.
final class PipelinedLookupTests: XCTestCase {
    func testPipelinedLookups_answerAsSingleLookupsDo_acrossBatches() throws {
        try withNamespace { ns in
            // Given: a LAN with a gateway route, and routes of every refusing type
            try ns.addLAN(.ipv4, linkLocal: false)
            try ns.ip("-4", "route", "add", "unreachable", "10.40.0.0/16")
            try ns.ip("-4", "route", "add", "blackhole", "10.41.0.0/16")
            try ns.ip("-4", "route", "add", "prohibit", "10.42.0.0/16")
            let socket = try NamespaceEntry.run(in: ns.reference) { () throws(NetlinkError) in try RouteLookupSocket() }
            // 80 questions: more than two batches, with repeats, local, on-link, via the gateway, refused and unrouted
            let plan = AddressPlan.ipv4
            let destinations = [plan.host, plan.onLink, plan.remote, "10.40.1.1",
                                "10.41.1.1", "10.42.1.1", plan.globalProbe, plan.loopback]
            let requests = (0..<80).map { RouteRequest(destination: try! IPAddress(destinations[$0 % destinations.count])) }

            // When: asked together and one by one
            let together = socket.lookup(requests)
            let alone = requests.map { socket.lookup($0) }

            // Then: the same answers, in order, and they are the kernel's (not all failures)
            XCTAssertEqual(together, alone)
            XCTAssertEqual(Set(together.map { answer -> String in
                if case .failure(let code) = answer { return "errno \(code)" }
                return "route"
            }), ["route", "errno \(EHOSTUNREACH)", "errno \(EINVAL)", "errno \(EACCES)", "errno \(ENETUNREACH)"])
        }
    }
}
