@testable import NetworkReachabilityCore
import XCTest
#if canImport(Glibc)
import Glibc
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
#endif

/// The probe's timeout and interval as a new user gives them, the hints of its errors, and the
/// boot-clock timer its schedule runs on.
final class ProbeOptionsTests: XCTestCase {
    func testShortIntervalAlone_lowersTheDefaultTimeout() throws {
        let quick = try ConnectivityProbe(url: "http://h/", interval: .seconds(1))
        XCTAssertEqual(quick.interval, .seconds(1))
        XCTAssertEqual(quick.timeout, .seconds(1), "the default timeout shrinks to the interval")
        XCTAssertEqual(try ConnectivityProbe(url: "http://h/", interval: .seconds(60)).timeout, .seconds(5))
        XCTAssertEqual(try ConnectivityProbe(url: "http://h/", timeout: .seconds(1), interval: .seconds(1)).timeout, .seconds(1))
    }

    func testExplicitTimeoutLongerThanInterval_refusedWithoutTheURLHint() {
        XCTAssertThrowsError(try ConnectivityProbe(url: "http://h/", timeout: .seconds(2), interval: .seconds(1))) { error in
            guard case .invalidProbe(_, let why) = error as? ReachabilityError else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("longer than the interval"), why)
            XCTAssertFalse("\(error)".contains("give http://"), "the URL is fine: \(error)")
        }
    }

    func testEveryReasonCarriesItsOwnHint() {
        // URL errors: the URL's form; other errors: what to change instead.
        for url in ["ftp://x", "http://", "http://host:0/"] {
            XCTAssertThrowsError(try ConnectivityProbe(url: url)) { XCTAssertTrue("\($0)".contains("(give http://"), "\($0)") }
        }
        let others: [() throws -> ConnectivityProbe] = [
            { try ConnectivityProbe(url: "tcp://h:1", expecting: "x") },
            { try ConnectivityProbe(url: "http://h/", expecting: "") },
            { try ConnectivityProbe(url: "http://h/", timeout: .zero) },
            { try ConnectivityProbe(url: "http://h/", interval: .zero) },
            { try ConnectivityProbe(url: "http://h/", expecting: String(repeating: "x", count: 5000)) },
        ]
        for make in others {
            XCTAssertThrowsError(try make()) { error in
                XCTAssertFalse("\(error)".contains("(give http://"), "\(error)")
                XCTAssertTrue("\(error)".contains(":"), "\(error)")
            }
        }
    }

    func testBootClockTimer_readableOnceExpired_notAfterDisarm() throws {
        let timer = try XCTUnwrap(BootClockTimer.make())
        defer { close(timer) }
        func readable(within milliseconds: Int32) -> Bool {
            var fds = [pollfd(fd: timer, events: Int16(POLLIN), revents: 0)]
            return poll(&fds, 1, milliseconds) == 1
        }
        XCTAssertTrue(BootClockTimer.arm(timer, after: .milliseconds(20)))
        XCTAssertTrue(readable(within: 2000))
        BootClockTimer.drain(timer)
        XCTAssertFalse(readable(within: 0), "drained")
        BootClockTimer.arm(timer, after: .milliseconds(20))
        BootClockTimer.disarm(timer)
        XCTAssertFalse(readable(within: 100), "disarmed")
    }
}
