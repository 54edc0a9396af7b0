import Foundation
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// Scheduled monitors follow the kernel: each change that changes the flags yields one callback, in order.
final class KernelEventTests: XCTestCase {
    func testCarrierDownAndUp_deliversEachChange_IPv4() throws { try carrierDownAndUp(.ipv4) }
    func testCarrierDownAndUp_deliversEachChange_IPv6() throws { try carrierDownAndUp(.ipv6) }

    private func carrierDownAndUp(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given a scheduled monitor of an on-link address
            try ns.addLAN(plan)
            let monitor = try ns.monitor(plan.onLink)
            let probe = CallbackProbe()
            monitor.setCallback(probe)
            let queue = callbackQueue()
            monitor.setDispatchQueue(queue)
            probe.flags.wait(forLast: [.reachable, .isDirect])
            // When the carrier goes away and comes back
            try ns.ip("link", "set", "v0p", "down")
            probe.flags.wait(forLast: [.reachable, .connectionRequired, .isDirect])
            try ns.ip("link", "set", "v0p", "up")
            probe.flags.wait(forLast: [.reachable, .isDirect])
            settle(monitor, queue)
            // Then exactly these states arrived, in this order
            XCTAssertEqual(probe.flags.all, [[.reachable, .isDirect], [.reachable, .connectionRequired, .isDirect], [.reachable, .isDirect]],
                           names(probe.flags.all))
            monitor.unschedule()
        }
    }

    func testDefaultRouteRemovedAndAdded_zeroAddressFollows_IPv4() throws { try defaultRouteRemovedAndAdded(.ipv4) }
    func testDefaultRouteRemovedAndAdded_zeroAddressFollows_IPv6() throws { try defaultRouteRemovedAndAdded(.ipv6) }

    private func defaultRouteRemovedAndAdded(_ plan: AddressPlan, function: String = #function) throws {
        // Given a scheduled monitor of the zero address, with a default route
        try withScheduledMonitor(plan, of: \.zero, firstFlags: [.reachable], function: function, given: { ns in
            try ns.ip(plan.family, "route", "add", "default", "via", plan.gateway, "dev", "v0")
        }) { given in
            let (ns, flags, paths) = (given.ns, given.flags, given.paths)
            // When the default route goes, then comes back
            try ns.ip(plan.family, "route", "del", "default")
            flags.wait(forLast: [])
            try ns.ip(plan.family, "route", "add", "default", "via", plan.gateway, "dev", "v0")
            flags.wait(forLast: [.reachable])
            given.settle()
            // Then
            XCTAssertEqual(flags.all, [[.reachable], [], [.reachable]], names(flags.all))
            XCTAssertEqual(paths.all.map(\.status), [.satisfied, .unsatisfied, .satisfied], "\(paths.all)")
            XCTAssertEqual(paths.all.map(\.unsatisfiedReason), [nil, .noRoute, nil], "\(paths.all)")
        }
    }

    func testOwnAddressRemoved_isNoLongerLocal_IPv4() throws { try ownAddressRemoved(.ipv4) }
    func testOwnAddressRemoved_isNoLongerLocal_IPv6() throws { try ownAddressRemoved(.ipv6) }

    private func ownAddressRemoved(_ plan: AddressPlan, function: String = #function) throws {
        try withScheduledMonitor(plan, of: \.host, firstFlags: [.reachable, .isLocalAddress, .isDirect], function: function) { given in
            // When the address is removed (and with it the subnet's route)
            try given.ns.ip("addr", "del", plan.hostCIDR, "dev", "v0")
            given.flags.wait(forLast: [])
            given.settle()
            XCTAssertEqual(given.flags.all, [[.reachable, .isLocalAddress, .isDirect], []], names(given.flags.all))
            XCTAssertEqual(try given.ns.kernelVerdict(.destination(plan.host)).flags, [], "the kernel no longer routes \(plan.host)")
        }
    }

    func testPairLocalAddressRemoved_becomesUnavailable_IPv4() throws { try pairLocalAddressRemoved(.ipv4) }
    func testPairLocalAddressRemoved_becomesUnavailable_IPv6() throws { try pairLocalAddressRemoved(.ipv6) }

    private func pairLocalAddressRemoved(_ plan: AddressPlan, function: String = #function) throws {
        try withNamespace(function) { ns in
            // Given a pair whose local address is on v0, and a second address on v0 that keeps the subnet
            try ns.addLAN(plan)
            let second = plan.family == "-4" ? "10.9.0.3/24" : "2001:db8:9::3/64"
            try ns.addAddress(second, to: "v0")
            let monitor = try ns.monitor(local: plan.host, remote: plan.remote)
            let paths = Recorder<NetworkPath>()
            monitor.record(paths: paths)
            let queue = callbackQueue()
            monitor.start(queue: queue)
            paths.wait(until: "the first path is satisfied") { $0.last?.status == .satisfied }
            // When the local address is removed
            try ns.ip("addr", "del", plan.hostCIDR, "dev", "v0")
            // Then the path says the local address is unavailable
            paths.wait(until: "the local address is unavailable") { $0.last?.unsatisfiedReason == .localAddressUnavailable }
            settle(monitor, queue)
            XCTAssertEqual(paths.all.last?.flags, [], "\(paths.all)")
            XCTAssertEqual(paths.all.last?.status, .unsatisfied, "\(paths.all)")
            XCTAssertEqual(try ns.kernelVerdict(.pair(local: plan.host, remote: plan.remote)).flags, [])
            monitor.cancel()
        }
    }

    func testPathUpdateHandlerAndDelegate_reportRequiresConnection_whenCarrierDrops() throws {
        try withNamespace { ns in
            let plan = AddressPlan.ipv4
            try ns.addLAN(plan)
            let monitor = try ns.monitor(plan.remote)
            let paths = Recorder<NetworkPath>()
            let delegate = RecordingDelegate()
            monitor.record(paths: paths)
            monitor.delegate = delegate
            let queue = callbackQueue()
            monitor.start(queue: queue)
            paths.wait(until: "the first path arrived") { !$0.isEmpty }
            // When the carrier drops
            try ns.ip("link", "set", "v0p", "down")
            paths.wait(until: "the path has no carrier") { $0.last?.unsatisfiedReason == .noCarrier }
            delegate.paths.wait(until: "the delegate heard it too") { $0.last?.unsatisfiedReason == .noCarrier }
            settle(monitor, queue)
            // Then both saw: satisfied, then unsatisfied because the link lost its carrier, and never the same path twice in a row
            for (who, seen) in [("pathUpdateHandler", paths.all), ("delegate", delegate.paths.all)] {
                XCTAssertEqual(seen.first?.status, .satisfied, "\(who): \(seen)")
                XCTAssertEqual(seen.last?.unsatisfiedReason, .noCarrier, "\(who): \(seen)")
                XCTAssertEqual(seen.last?.flags, [.reachable, .connectionRequired], "\(who): \(seen)")
                XCTAssertEqual(seen.last?.interface?.name, "v0", "\(who): \(seen)")
                XCTAssertNil(firstRepeat(in: seen), "\(who) got the same path twice in a row: \(seen)")
            }
            XCTAssertEqual(paths.all, delegate.paths.all, "the handler and the delegate see the same paths")
            monitor.cancel()
        }
    }

    func testAsyncSequence_yieldsCurrentPathFirst_thenEachChange() throws {
        try withNamespace { ns in
            let plan = AddressPlan.ipv6
            try ns.addLAN(plan)
            let monitor = try ns.monitor(plan.onLink)
            let paths = Recorder<NetworkPath>()
            let finished = DispatchSemaphore(value: 0)
            // When iterating the monitor
            let iteration = Task {
                for await path in monitor {
                    paths.append(path)
                }
                finished.signal()
            }
            paths.wait(until: "the current path arrived") { $0.first?.status == .satisfied }
            try ns.ip("link", "set", "v0p", "down")
            paths.wait(until: "the path has no carrier") { $0.last?.unsatisfiedReason == .noCarrier }
            iteration.cancel()
            XCTAssertEqual(finished.wait(timeout: .now() + integrationTimeout), .success, "cancelling the task ends the iteration")
            // Then
            XCTAssertEqual(paths.all.first?.flags, [.reachable, .isDirect], "\(paths.all)")
            XCTAssertEqual(paths.all.last?.flags, [.reachable, .connectionRequired, .isDirect], "\(paths.all)")
            XCTAssertEqual(paths.all.last?.unsatisfiedReason, .noCarrier, "\(paths.all)")
            XCTAssertNil(firstRepeat(in: paths.all), "the same path twice in a row: \(paths.all)")
        }
    }
}
