import XCTest
@testable import NetworkReachabilityCore
@testable import ReachabilityDelivery
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// The `SCNetworkReachabilityContext` contract: `retain` once when set, `release` exactly once.
final class CallbackContextTests: XCTestCase {
    /// What `info` points at: the counts the C functions below keep.
    private struct Counts {
        var retains = 0
        var releases = 0
    }

    private static let retain: @convention(c) (UnsafeRawPointer) -> UnsafeRawPointer = { info in
        UnsafeMutableRawPointer(mutating: info).assumingMemoryBound(to: Counts.self).pointee.retains += 1
        return info
    }

    private static let release: @convention(c) (UnsafeRawPointer) -> Void = { info in
        UnsafeMutableRawPointer(mutating: info).assumingMemoryBound(to: Counts.self).pointee.releases += 1
    }

    private static let callback: PathMonitor.Callback = { _, _, _ in }

    private func withCounts(_ body: (UnsafeMutablePointer<Counts>, PathMonitor.Context) -> Void) {
        let counts = UnsafeMutablePointer<Counts>.allocate(capacity: 1)
        counts.initialize(to: Counts())
        defer { counts.deallocate() }
        body(counts, PathMonitor.Context(info: UnsafeMutableRawPointer(counts), retain: Self.retain, release: Self.release))
    }

    func testContextDefaults() {
        let context = PathMonitor.Context(info: nil)
        XCTAssertEqual(context.version, 0)
        XCTAssertNil(context.info)
        XCTAssertNil(context.retain)
        XCTAssertNil(context.release)
        XCTAssertNil(context.copyDescription)
    }

    func testBox_retainsOnceAndReleasesOnceWhenItGoesAway() {
        withCounts { counts, context in
            do {
                let box = CallbackContext(context)
                XCTAssertEqual(box.info, UnsafeMutableRawPointer(counts))
                XCTAssertEqual(counts.pointee.retains, 1)
                XCTAssertEqual(counts.pointee.releases, 0)
                withExtendedLifetime(box) {}
            }
            XCTAssertEqual(counts.pointee.retains, 1)
            XCTAssertEqual(counts.pointee.releases, 1)
        }
    }

    func testBox_withoutRetainOrRelease_passesInfoThrough() {
        let info = UnsafeMutableRawPointer(bitPattern: 0x1234)
        XCTAssertEqual(CallbackContext(PathMonitor.Context(info: info)).info, info)
        XCTAssertNil(CallbackContext(PathMonitor.Context(info: nil, retain: Self.retain, release: Self.release)).info)
    }

    func testCore_replacingTheCallback_releasesTheOldContextOnce() {
        withCounts { counts, context in
            let core = MonitorCore(target: .general(.none), initial: .unsatisfied(.noRoute))
            core.setCallback(Self.callback, context: CallbackContext(context))
            XCTAssertEqual(counts.pointee.retains, 1)
            XCTAssertEqual(counts.pointee.releases, 0)
            core.setCallback(Self.callback, context: CallbackContext(context))
            XCTAssertEqual(counts.pointee.retains, 2)
            XCTAssertEqual(counts.pointee.releases, 1)
            core.setCallback(nil, context: nil)
            XCTAssertEqual(counts.pointee.releases, 2)
            core.setCallback(nil, context: nil)
            core.tearDown()
            XCTAssertEqual(counts.pointee.retains, 2)
            XCTAssertEqual(counts.pointee.releases, 2)
        }
    }

    func testCore_tearDown_releasesTheContextOnce() {
        withCounts { counts, context in
            let core = MonitorCore(target: .general(.none), initial: .unsatisfied(.noRoute))
            core.setCallback(Self.callback, context: CallbackContext(context))
            core.tearDown()
            XCTAssertEqual(counts.pointee.releases, 1)
            core.tearDown()
            XCTAssertEqual(counts.pointee.releases, 1)
        }
    }

    func testCore_clearingTheCallback_dropsAContextGivenWithIt() {
        withCounts { counts, context in
            let core = MonitorCore(target: .general(.none), initial: .unsatisfied(.noRoute))
            core.setCallback(nil, context: CallbackContext(context))
            XCTAssertEqual(counts.pointee.retains, 1)
            XCTAssertEqual(counts.pointee.releases, 1, "a context set with no callback is released at once")
        }
    }
}
