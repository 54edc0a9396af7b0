import Foundation
@testable import NetworkReachability
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import ReachabilityCompat
import XCTest

/// Issue 18, semantics.md guarantees 1 and 2 for host names: no face delivers a placeholder
/// before the name's first resolution has finished, in either order of scheduling and setting the
/// handler, the first delivery is the resolved state, and nothing else arrives without a change.
///
/// Each repetition asks a name no one resolved before (the zone server answers by the last
/// labels), so every repetition races the resolution against setting up a dozen faces again.
final class HostNameFirstDeliveryTests: XCTestCase {
    func testNameBehindTheGateway_everyFaceFirstGetsTheResolvedState() throws {
        try check(repetitions: 10) { "r\($0).remote.nrx.test" }
    }

    func testOnLinkName_everyFaceFirstGetsTheResolvedState() throws {
        try check(repetitions: 10) { "r\($0).onlink.nrx.test" }
    }

    func testLocalhost_everyFaceFirstGetsTheResolvedState() throws {
        try check(repetitions: 10) { _ in "localhost" }
    }

    func testNXDOMAIN_everyFaceFirstGetsNameNotFound() throws {
        try check(repetitions: 10) { "r\($0).missing.nrx.test" }
    }

    func testServerAnsweringAfter400ms_nothingIsDeliveredBeforeTheAnswer() throws {
        try check(repetitions: 3) { "r\($0).slow.nrx.test" }
    }

    // MARK: - The faces

    /// One face of one monitor, set up in one order: what it received, judged against the resolved path.
    private struct Face {
        var label: String
        var received: () -> Int
        /// nil when what arrived is exactly the resolved state, once; else what was wrong.
        var problem: (NetworkPath) -> String?
        var stop: () -> Void
    }

    private func check(repetitions: Int, name: (Int) -> String) throws {
        try withDNSLAN(requiring: [.python]) { bed in
            try bed.useTestServer()
            try bed.startZoneServer()
            let queue = DispatchQueue(label: "first-delivery")
            for repetition in 0..<repetitions {
                try runRepetition(host: name(repetition), in: bed, queue: queue)
            }
        }
    }

    private func runRepetition(host: String, in bed: DNSTestBed, queue: DispatchQueue) throws {
        var faces: [Face] = []
        for callbackFirst in [true, false] {
            faces.append(try cCallbackFace(bed.monitor(host: host), queue: queue, callbackFirst: callbackFirst))
            faces.append(try compatFace(bed.monitor(host: host), queue: queue, callbackFirst: callbackFirst))
            faces.append(try flagsHandlerFace(bed.monitor(host: host), queue: queue, handlerFirst: callbackFirst))
            faces.append(try pathHandlerFace(bed.monitor(host: host), queue: queue, handlerFirst: callbackFirst))
            faces.append(try delegateFace(bed.monitor(host: host), queue: queue, delegateFirst: callbackFirst))
            faces += try managerFaces(bed.monitor(host: host), queue: queue, blockFirst: callbackFirst)
        }
        faces.append(try asyncFace(bed.monitor(host: host)))
        defer { faces.forEach { $0.stop() } }

        try waitUntil("every face of \(host) got its first delivery") { faces.allSatisfy { $0.received() > 0 } }
        // The state the name resolved to; the first resolution has finished, so this is no placeholder.
        let reference = try bed.monitor(host: host)
        let expected = reference.currentPath
        // Whatever the engine and the user's queue still hold arrives before the check.
        _ = reference.engine?.onLoop { _ in }
        queue.sync {}
        for face in faces {
            if let problem = face.problem(expected) {
                XCTFail("\(host), \(face.label): \(problem); resolved: \(names(expected.flags)) \(expected)")
            }
        }
    }

    private func flagsProblem(_ received: [ReachabilityFlags], _ expected: NetworkPath) -> String? {
        received == [expected.flags] ? nil : "received \(names(received))"
    }

    private func pathProblem(_ received: [NetworkPath], _ expected: NetworkPath) -> String? {
        received == [expected] ? nil : "received \(received.count) paths: \(received)"
    }

    private func cCallbackFace(_ monitor: PathMonitor, queue: DispatchQueue, callbackFirst: Bool) -> Face {
        let probe = CallbackProbe()
        var context = probe.context()
        if callbackFirst { monitor.setCallback(CallbackProbe.callback, context: &context) }
        monitor.setDispatchQueue(queue)
        if !callbackFirst { monitor.setCallback(CallbackProbe.callback, context: &context) }
        return Face(label: "C callback, \(callbackFirst ? "callback" : "queue") first", received: { probe.flags.count },
                    problem: { self.flagsProblem(probe.flags.all, $0) }, stop: { monitor.unschedule() })
    }

    private func compatFace(_ monitor: PathMonitor, queue: DispatchQueue, callbackFirst: Bool) -> Face {
        let probe = CallbackProbe()
        var context = SCNetworkReachabilityContext(version: 0, info: Unmanaged.passUnretained(probe).toOpaque(),
                                                   retain: CallbackProbe.retain, release: CallbackProbe.release,
                                                   copyDescription: nil)
        if callbackFirst { SCNetworkReachabilitySetCallback(monitor, CallbackProbe.callback, &context) }
        SCNetworkReachabilitySetDispatchQueue(monitor, queue)
        if !callbackFirst { SCNetworkReachabilitySetCallback(monitor, CallbackProbe.callback, &context) }
        return Face(label: "SCNetworkReachability, \(callbackFirst ? "callback" : "queue") first", received: { probe.flags.count },
                    problem: { self.flagsProblem(probe.flags.all, $0) },
                    stop: { SCNetworkReachabilitySetDispatchQueue(monitor, nil) })
    }

    private func flagsHandlerFace(_ monitor: PathMonitor, queue: DispatchQueue, handlerFirst: Bool) -> Face {
        let flags = Recorder<ReachabilityFlags>()
        if handlerFirst { monitor.setCallback { flags.append($0) } }
        monitor.setDispatchQueue(queue)
        if !handlerFirst { monitor.setCallback { flags.append($0) } }
        return Face(label: "flags handler, \(handlerFirst ? "handler" : "queue") first", received: { flags.count },
                    problem: { self.flagsProblem(flags.all, $0) }, stop: { monitor.unschedule() })
    }

    private func pathHandlerFace(_ monitor: PathMonitor, queue: DispatchQueue, handlerFirst: Bool) -> Face {
        let paths = Recorder<NetworkPath>()
        if handlerFirst { monitor.pathUpdateHandler = { paths.append($0) } }
        monitor.start(queue: queue)
        if !handlerFirst { monitor.pathUpdateHandler = { paths.append($0) } }
        return Face(label: "pathUpdateHandler, \(handlerFirst ? "handler" : "start(queue:)") first", received: { paths.count },
                    problem: { self.pathProblem(paths.all, $0) }, stop: { monitor.cancel() })
    }

    private final class DelegateProbe: PathMonitorDelegate {
        let paths = Recorder<NetworkPath>()
        func pathMonitor(_ monitor: PathMonitor, didUpdate path: NetworkPath) { paths.append(path) }
    }

    private func delegateFace(_ monitor: PathMonitor, queue: DispatchQueue, delegateFirst: Bool) -> Face {
        let delegate = DelegateProbe()
        if delegateFirst { monitor.delegate = delegate }
        monitor.start(queue: queue)
        if !delegateFirst { monitor.delegate = delegate }
        return Face(label: "delegate, \(delegateFirst ? "delegate" : "start(queue:)") first", received: { delegate.paths.count },
                    problem: { self.pathProblem(delegate.paths.all, $0) },
                    stop: { withExtendedLifetime(delegate) { monitor.cancel() } })
    }

    private func asyncFace(_ monitor: PathMonitor) -> Face {
        let paths = Recorder<NetworkPath>()
        let task = Task {
            for await path in monitor { paths.append(path) }
        }
        // Elements may still be on their way to the task: only the first is judged.
        return Face(label: "for await", received: { paths.count },
                    problem: { paths.all.first == $0 ? nil : "first element \(String(describing: paths.all.first))" },
                    stop: { monitor.cancel(); task.cancel() })
    }

    /// The block set before or after `startMonitoring()`; the notification is observed before.
    private func managerFaces(_ monitor: PathMonitor, queue: DispatchQueue, blockFirst: Bool) -> [Face] {
        let manager = ReachabilityManager(monitor: monitor, queue: queue)
        let statuses = Recorder<ReachabilityStatus>()
        let notified = Recorder<ReachabilityStatus>()
        if blockFirst { manager.setReachabilityStatusChangeBlock { statuses.append($0) } }
        let observer = NotificationCenter.default.addObserver(
            forName: ReachabilityManager.didChangeNotification, object: manager, queue: nil
        ) { notification in
            notified.append(notification.userInfo?[ReachabilityManager.statusUserInfoKey] as? ReachabilityStatus ?? .unknown)
        }
        manager.startMonitoring()
        if !blockFirst { manager.setReachabilityStatusChangeBlock { statuses.append($0) } }
        func problem(_ received: [ReachabilityStatus], _ expected: NetworkPath) -> String? {
            received == [ReachabilityStatus(flags: expected.flags)] ? nil : "received \(received)"
        }
        return [
            Face(label: "ReachabilityManager block, \(blockFirst ? "block" : "startMonitoring()") first", received: { statuses.count },
                 problem: { problem(statuses.all, $0) }, stop: { manager.stopMonitoring() }),
            Face(label: "ReachabilityManager notification, block \(blockFirst ? "first" : "second")", received: { notified.count },
                 problem: { problem(notified.all, $0) }, stop: { NotificationCenter.default.removeObserver(observer) }),
        ]
    }
}
