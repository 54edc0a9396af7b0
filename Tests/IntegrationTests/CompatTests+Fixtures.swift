import Foundation
import ReachabilityCompat
import Synchronization
import XCTest

/// What `CompatTests` build their targets with: a probe behind each context's `info`, the
/// callback that records into it, the contexts of Alamofire and of Apple's article, the zero
/// address's target, and a namespace as `ReachabilityCompat.defaultNamespace`.
extension CompatTests {
    /// The object behind a context's `info`: counts retain and release calls and records callbacks.
    final class ContextProbe: Sendable {
        let retains = Atomic<Int>(0)
        let releases = Atomic<Int>(0)
        let flags = PortingRecorder<SCNetworkReachabilityFlags>()
        /// The `info` pointers the callback received.
        let infos = PortingRecorder<UInt>()
        /// The target pointers the callback received.
        let targets = PortingRecorder<UInt>()
        /// Whether `SCNetworkReachabilityGetFlags` on the callback's target pointer succeeded, and agreed.
        let flagsFromTarget = PortingRecorder<Bool>()
        /// Whether each callback ran on the thread the test expects.
        let onExpectedThread = PortingRecorder<Bool>()
        /// Set once the target was unscheduled; a callback that starts later counts as late.
        let unscheduled = Atomic<Bool>(false)
        let lateCallbacks = Atomic<Int>(0)
        nonisolated(unsafe) var expectedThread: pthread_t?
        /// When set, the next callback signals the first semaphore and waits for the second.
        let gate = Mutex<(entered: DispatchSemaphore, proceed: DispatchSemaphore)?>(nil)
        /// "callback returned" for a gated callback, and what the test adds.
        let order = PortingRecorder<String>()

        var counts: [Int] { [retains.load(ordering: .relaxed), releases.load(ordering: .relaxed)] }
    }

    /// A capture-free closure literal, converted to the C callback type.
    static let recordingCallback: SCNetworkReachabilityCallBack = { (target, flags, info) in
        guard let info else { return }
        let probe = Unmanaged<ContextProbe>.fromOpaque(info).takeUnretainedValue()
        if probe.unscheduled.load(ordering: .relaxed) {
            probe.lateCallbacks.add(1, ordering: .relaxed)
        }
        probe.infos.append(UInt(bitPattern: info))
        probe.targets.append(UInt(bitPattern: Unmanaged.passUnretained(target).toOpaque()))
        var current = SCNetworkReachabilityFlags()
        probe.flagsFromTarget.append(SCNetworkReachabilityGetFlags(target, &current))
        if let thread = probe.expectedThread {
            probe.onExpectedThread.append(pthread_equal(thread, pthread_self()) != 0)
        }
        probe.flags.append(flags)
        if let gate = probe.gate.withLock({ gate in defer { gate = nil }; return gate }) {
            gate.entered.signal()
            gate.proceed.wait()
            probe.order.append("callback returned")
        }
    }

    /// A context in Alamofire's style: the probe passed unretained, with retain and release closures
    /// that give the C side its own reference.
    func alamofireContext(for probe: ContextProbe) -> SCNetworkReachabilityContext {
        SCNetworkReachabilityContext(
            version: 0,
            info: Unmanaged.passUnretained(probe).toOpaque(),
            retain: { info in
                let unmanaged = Unmanaged<ContextProbe>.fromOpaque(info)
                unmanaged.takeUnretainedValue().retains.add(1, ordering: .relaxed)
                return UnsafeRawPointer(unmanaged.retain().toOpaque())
            },
            release: { info in
                let unmanaged = Unmanaged<ContextProbe>.fromOpaque(info)
                unmanaged.takeUnretainedValue().releases.add(1, ordering: .relaxed)
                unmanaged.release()
            },
            copyDescription: nil
        )
    }

    /// A context of the "Network reachability" article: `info` only, passed unretained.
    func plainContext(for probe: ContextProbe) -> SCNetworkReachabilityContext {
        var context = SCNetworkReachabilityContext(version: 0, info: nil, retain: nil, release: nil, copyDescription: nil)
        context.info = Unmanaged.passUnretained(probe).toOpaque()
        return context
    }

    /// `SCNetworkReachabilityCreateWithAddress` for the zero IPv4 address, as the article does it.
    func makeZeroAddressTarget(file: StaticString = #filePath, line: UInt = #line) throws -> SCNetworkReachability {
        var zeroAddress = sockaddr_in()
        zeroAddress.sin_family = sa_family_t(AF_INET)
        let target = withUnsafePointer(to: &zeroAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                SCNetworkReachabilityCreateWithAddress(nil, $0)
            }
        }
        return try XCTUnwrap(target, "SCError() \(SCError()): \(String(cString: SCErrorString(SCError())))", file: file, line: line)
    }

    /// Runs `body` with a fresh `nrx-sc-` namespace as `ReachabilityCompat.defaultNamespace`.
    func withCompatNamespace(online: Bool = true, _ body: (PortingNamespace) throws -> Void) throws {
        try withPortingNamespace(prefix: "nrx-sc-", online: online) { namespace in
            let previous = ReachabilityCompat.defaultNamespace
            ReachabilityCompat.defaultNamespace = namespace.networkNamespace
            defer { ReachabilityCompat.defaultNamespace = previous }
            try body(namespace)
        }
    }
}
