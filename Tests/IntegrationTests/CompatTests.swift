import Foundation
import ReachabilityCompat
import Synchronization
import XCTest

/// Apple's names (`ReachabilityCompat`) against a real kernel, in throwaway namespaces chosen with
/// `ReachabilityCompat.defaultNamespace`.
final class CompatTests: XCTestCase {
    let timeout = PortingTests.timeout

    // MARK: - Context

    func testContextRetainRelease_acrossSetReplaceClearAndDeinit_oneReleasePerRetain() throws {
        try withCompatNamespace { _ in
            weak var weakA: ContextProbe?
            weak var weakB: ContextProbe?
            weak var weakC: ContextProbe?
            let queue = DispatchQueue(label: "CompatTests.context")
            do {
                let (a, b, c) = (ContextProbe(), ContextProbe(), ContextProbe())
                (weakA, weakB, weakC) = (a, b, c)
                var target: SCNetworkReachability? = try makeZeroAddressTarget()
                XCTAssertTrue(SCNetworkReachabilitySetDispatchQueue(target!, queue))

                // Set: retained once
                var contextA = alamofireContext(for: a)
                XCTAssertTrue(SCNetworkReachabilitySetCallback(target!, Self.recordingCallback, &contextA))
                XCTAssertEqual(a.counts, [1, 0])
                wait(for: [a.flags.expectation(count: 1)], timeout: timeout)

                // Replace: the old one released once (after a callback in flight), the new one retained once
                var contextB = alamofireContext(for: b)
                XCTAssertTrue(SCNetworkReachabilitySetCallback(target!, Self.recordingCallback, &contextB))
                queue.sync {}
                XCTAssertEqual(a.counts, [1, 1])
                XCTAssertEqual(b.counts, [1, 0])

                // Clear
                XCTAssertTrue(SCNetworkReachabilitySetCallback(target!, nil, nil))
                queue.sync {}
                XCTAssertEqual(b.counts, [1, 1])

                // Deinit of a scheduled target with a context set
                var contextC = alamofireContext(for: c)
                XCTAssertTrue(SCNetworkReachabilitySetCallback(target!, Self.recordingCallback, &contextC))
                XCTAssertEqual(c.counts, [1, 0])
                target = nil
                queue.sync {}
                XCTAssertEqual(c.counts, [1, 1])
                XCTAssertEqual(a.counts, [1, 1], "nothing more for an old context")
                XCTAssertEqual(b.counts, [1, 1])
            }
            XCTAssertNil(weakA, "every retain was balanced by a release")
            XCTAssertNil(weakB)
            XCTAssertNil(weakC)
        }
    }

    func testInfoPointer_roundTrip_withACaptureFreeClosureLiteral() throws {
        try withCompatNamespace { _ in
            let probe = ContextProbe()
            let target = try makeZeroAddressTarget()
            var context = plainContext(for: probe)
            // The callback as a closure literal in the call, as ported code writes it
            XCTAssertTrue(SCNetworkReachabilitySetCallback(target, { (target, flags, info) in
                guard let info else { return }
                let probe = Unmanaged<ContextProbe>.fromOpaque(info).takeUnretainedValue()
                probe.infos.append(UInt(bitPattern: info))
                probe.targets.append(UInt(bitPattern: UnsafeRawPointer(target)))
                var current = SCNetworkReachabilityFlags()
                probe.flagsFromTarget.append(SCNetworkReachabilityGetFlags(target, &current) && current == flags)
                probe.flags.append(flags)
            }, &context))
            XCTAssertTrue(SCNetworkReachabilitySetDispatchQueue(target, DispatchQueue(label: "CompatTests.info")))
            wait(for: [probe.flags.expectation(count: 1)], timeout: timeout)
            XCTAssertTrue(SCNetworkReachabilitySetDispatchQueue(target, nil))

            XCTAssertEqual(probe.infos.values, [UInt(bitPattern: Unmanaged.passUnretained(probe).toOpaque())])
            XCTAssertEqual(probe.targets.values, [UInt(bitPattern: Unmanaged.passUnretained(target).toOpaque())])
            XCTAssertEqual(probe.flagsFromTarget.values, [true])
            XCTAssertEqual(probe.flags.values, [.reachable])
        }
    }

    // MARK: - Flags and schedule

    func testGetFlags_beforeAndAfterScheduling() throws {
        try withCompatNamespace { namespace in
            let target = try makeZeroAddressTarget()
            var flags = SCNetworkReachabilityFlags()

            // Before scheduling: a fresh evaluation
            XCTAssertTrue(SCNetworkReachabilityGetFlags(target, &flags))
            XCTAssertEqual(flags, .reachable)

            // Scheduled: the first callback and GetFlags agree
            let probe = ContextProbe()
            var context = plainContext(for: probe)
            let queue = DispatchQueue(label: "CompatTests.getFlags")
            XCTAssertTrue(SCNetworkReachabilitySetCallback(target, Self.recordingCallback, &context))
            XCTAssertTrue(SCNetworkReachabilitySetDispatchQueue(target, queue))
            wait(for: [probe.flags.expectation(count: 1)], timeout: timeout)
            XCTAssertTrue(SCNetworkReachabilityGetFlags(target, &flags))
            XCTAssertEqual(flags, .reachable)

            // A change reaches both
            try namespace.setCarrier(false)
            wait(for: [probe.flags.expectation(count: 2)], timeout: timeout)
            XCTAssertEqual(probe.flags.values, [.reachable, [.reachable, .connectionRequired]])
            XCTAssertTrue(SCNetworkReachabilityGetFlags(target, &flags))
            XCTAssertEqual(flags, [.reachable, .connectionRequired])
            XCTAssertEqual(probe.flagsFromTarget.values, [true, true])

            // Unscheduled again: GetFlags still follows the kernel
            XCTAssertTrue(SCNetworkReachabilitySetDispatchQueue(target, nil))
            try namespace.setCarrier(true)
            XCTAssertTrue(SCNetworkReachabilityGetFlags(target, &flags))
            XCTAssertEqual(flags, .reachable)
        }
    }

    func testSetDispatchQueueNil_isABarrier_andTheTargetCanBeScheduledAgain() throws {
        try withCompatNamespace { namespace in
            let probe = ContextProbe()
            let control = ContextProbe()
            let target = try makeZeroAddressTarget()
            let controlTarget = try makeZeroAddressTarget()
            let queue = DispatchQueue(label: "CompatTests.barrier")
            var context = plainContext(for: probe)
            var controlContext = plainContext(for: control)
            XCTAssertTrue(SCNetworkReachabilitySetCallback(target, Self.recordingCallback, &context))
            XCTAssertTrue(SCNetworkReachabilitySetCallback(controlTarget, Self.recordingCallback, &controlContext))
            XCTAssertTrue(SCNetworkReachabilitySetDispatchQueue(target, queue))
            XCTAssertTrue(SCNetworkReachabilitySetDispatchQueue(controlTarget, DispatchQueue(label: "CompatTests.control")))
            wait(for: [probe.flags.expectation(count: 1), control.flags.expectation(count: 1)], timeout: timeout)

            // A second queue while scheduled is refused, as Apple's
            XCTAssertFalse(SCNetworkReachabilitySetDispatchQueue(target, queue))
            XCTAssertEqual(SCError(), Int32(kSCStatusInvalidArgument))

            // When the target is unscheduled from another thread while its callback runs
            let (entered, proceed) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            probe.gate.withLock { $0 = (entered, proceed) }
            try namespace.setCarrier(false)
            XCTAssertEqual(entered.wait(timeout: .now() + timeout), .success, "the change reached the callback")
            Thread.detachNewThread {
                let unscheduled = SCNetworkReachabilitySetDispatchQueue(target, nil)
                probe.unscheduled.store(true, ordering: .relaxed)
                probe.order.append("unschedule returned \(unscheduled)")
            }

            // Then it returns only once the callback has returned
            let early = probe.order.expectation(count: 1)
            early.isInverted = true
            wait(for: [early], timeout: 0.5)
            proceed.signal()
            wait(for: [probe.order.expectation(count: 2)], timeout: timeout)
            XCTAssertEqual(probe.order.values, ["callback returned", "unschedule returned true"])
            let delivered = probe.flags.values.count

            // Then no callback starts afterwards, while the control target sees every change
            wait(for: [control.flags.expectation("carrier off") { $0.last == [.reachable, .connectionRequired] }], timeout: timeout)
            try namespace.setCarrier(true)
            wait(for: [control.flags.expectation("carrier on") { $0.count >= 3 && $0.last == .reachable }], timeout: timeout)
            queue.sync {}
            XCTAssertEqual(probe.lateCallbacks.load(ordering: .relaxed), 0)
            XCTAssertEqual(probe.flags.values.count, delivered)

            // Unscheduling twice is refused, as Apple's
            XCTAssertFalse(SCNetworkReachabilitySetDispatchQueue(target, nil))
            XCTAssertEqual(SCError(), Int32(kSCStatusInvalidArgument))

            // Scheduled again: the current flags come first, even though they equal the last ones delivered
            probe.unscheduled.store(false, ordering: .relaxed)
            XCTAssertTrue(SCNetworkReachabilitySetDispatchQueue(target, queue))
            wait(for: [probe.flags.expectation(count: delivered + 1)], timeout: timeout)
            XCTAssertEqual(probe.flags.values.last, .reachable)
            XCTAssertTrue(SCNetworkReachabilitySetDispatchQueue(target, nil))
            XCTAssertTrue(SCNetworkReachabilitySetDispatchQueue(controlTarget, nil))
        }
    }

    // MARK: - Bad input

    func testBadInput_returnsNilAndSetsSCError_neverCrashes() {
        XCTAssertNil(SCNetworkReachabilityCreateWithName(nil, ""))
        XCTAssertEqual(SCError(), Int32(kSCStatusInvalidArgument))

        XCTAssertNil(SCNetworkReachabilityCreateWithName(kCFAllocatorDefault, String(repeating: "a", count: 300)))
        XCTAssertEqual(SCError(), Int32(kSCStatusInvalidArgument))
        XCTAssertNil(SCNetworkReachabilityCreateWithName(nil, "bad..example.com"))
        XCTAssertNil(SCNetworkReachabilityCreateWithName(nil, "under_score!.example"))
        XCTAssertEqual(SCError(), Int32(kSCStatusInvalidArgument))
        let notUTF8: [CChar] = [-1, -2, 0x61, 0]
        XCTAssertNil(SCNetworkReachabilityCreateWithName(nil, notUTF8))
        XCTAssertEqual(SCError(), Int32(kSCStatusInvalidArgument))

        var unix = sockaddr_un()
        unix.sun_family = sa_family_t(AF_UNIX)
        let fromUnix = withUnsafePointer(to: &unix) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SCNetworkReachabilityCreateWithAddress(nil, $0) }
        }
        XCTAssertNil(fromUnix)
        XCTAssertEqual(SCError(), Int32(kSCStatusInvalidArgument))

        XCTAssertNil(SCNetworkReachabilityCreateWithAddressPair(nil, nil, nil))
        XCTAssertEqual(SCError(), Int32(kSCStatusInvalidArgument))

        // A namespace that does not exist: ENOENT, as Apple's SCError() also carries errno values
        let previous = ReachabilityCompat.defaultNamespace
        ReachabilityCompat.defaultNamespace = .named("nrx-sc-missing-\(getpid())")
        defer { ReachabilityCompat.defaultNamespace = previous }
        var zeroAddress = sockaddr_in()
        zeroAddress.sin_family = sa_family_t(AF_INET)
        let inMissingNamespace = withUnsafePointer(to: &zeroAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SCNetworkReachabilityCreateWithAddress(nil, $0) }
        }
        XCTAssertNil(inMissingNamespace)
        XCTAssertEqual(SCError(), ENOENT)
        XCTAssertEqual(String(cString: SCErrorString(SCError())), String(cString: strerror(ENOENT)))

        // The last error is the calling thread's own
        let otherThread = PortingRecorder<Int32>()
        Thread.detachNewThread { otherThread.append(SCError()) }
        wait(for: [otherThread.expectation(count: 1)], timeout: timeout)
        XCTAssertEqual(otherThread.values, [Int32(kSCStatusOK)])
        XCTAssertEqual(SCError(), ENOENT)
    }

    func testSCErrorString_givesApplesTexts() {
        XCTAssertEqual(String(cString: SCErrorString(Int32(kSCStatusOK))), "Success!")
        XCTAssertEqual(String(cString: SCErrorString(Int32(kSCStatusFailed))), "Failed!")
        XCTAssertEqual(String(cString: SCErrorString(Int32(kSCStatusInvalidArgument))), "Invalid argument")
        XCTAssertEqual(String(cString: SCErrorString(Int32(kSCStatusReachabilityUnknown))), "Network reachability cannot be determined")
        XCTAssertEqual(String(cString: SCErrorString(EPERM)), String(cString: strerror(EPERM)))
        XCTAssertEqual(String(cString: SCErrorString(999_999)), "Unknown error")
        XCTAssertEqual(kSCStatusInvalidArgument, 1002)
        XCTAssertEqual(kSCStatusReachabilityUnknown, 4001)
    }

    // MARK: - Network framework's names

    func testNWPathMonitor_followsTheDefaultNamespace() throws {
        try withCompatNamespace { namespace in
            let monitor = NWPathMonitor()
            let paths = PortingRecorder<NWPath>()
            monitor.pathUpdateHandler = { path in paths.append(path) }
            monitor.start(queue: DispatchQueue(label: "CompatTests.nw"))
            defer { monitor.cancel() }
            wait(for: [paths.expectation(count: 1)], timeout: timeout)
            let first = try XCTUnwrap(paths.values.first)
            XCTAssertEqual(first.status, .satisfied)
            XCTAssertEqual(first.networkPath.interface?.name, "v0")
            let interface: NWInterface? = first.availableInterfaces.first { $0.name == "v0" }
            XCTAssertNotNil(interface)

            try namespace.setCarrier(false)
            wait(for: [paths.expectation("no carrier") { $0.last?.networkPath.unsatisfiedReason == .noCarrier }], timeout: timeout)
            XCTAssertEqual(monitor.currentPath.status, .unsatisfied)
            XCTAssertEqual(monitor.currentPath.unsatisfiedReason, .notAvailable)
            XCTAssertFalse(monitor.currentPath.usesInterfaceType(.wiredEthernet), "no interface carries a cable-out path")
        }
    }
}
