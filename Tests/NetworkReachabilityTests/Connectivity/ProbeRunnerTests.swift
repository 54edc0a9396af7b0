import Foundation
#if canImport(Glibc)
import Glibc
#endif
import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// How a probe shares its timeout among a name's addresses.
final class ProbeRunnerTests: XCTestCase {
    func testConnectDeadline_anEqualShareOfTheTimeLeft_atLeastASecond() {
        let now = ContinuousClock.now
        let deadline = now + .seconds(6)
        XCTAssertEqual(ProbeRunner.connectDeadline(from: now, to: deadline, addressesLeft: 1), deadline, "the last gets all")
        XCTAssertEqual(ProbeRunner.connectDeadline(from: now, to: deadline, addressesLeft: 2), now + .seconds(3))
        XCTAssertEqual(ProbeRunner.connectDeadline(from: now, to: deadline, addressesLeft: 12), now + .seconds(1), "at least 1 s")
        let soon = now + .milliseconds(600)
        XCTAssertEqual(ProbeRunner.connectDeadline(from: now, to: soon, addressesLeft: 3), soon, "or all that is left")
        XCTAssertEqual(ProbeRunner.connectDeadline(from: soon, to: now, addressesLeft: 2), now, "never past the deadline")
    }

    /// Given a first address that drops the connect silently and a second that accepts, when a
    /// probe tries both, then the second is reached within the probe's timeout.
    func testSilentFirstAddress_leavesTimeForTheNext() throws {
        // 127.0.0.1:port accepts; 127.0.0.2:port listens with its accept queue full (backlog 0, one
        // connection queued), so Linux drops further SYNs to it: a connect there hangs.
        let (open, port) = try Self.listener("127.0.0.1", port: 0)
        let (full, _) = try Self.listener("127.0.0.2", port: port)
        let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { [open, full, filler].forEach { _ = close($0) } }
        var address = try Self.socketAddress("127.0.0.2", port: port)
        let filled = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(filled, 0, "the one queued connection")

        let probe = try ConnectivityProbe(url: "tcp://127.0.0.1:\(port)", timeout: .seconds(3))
        let resolver = ResolverPool(namespace: .current)
        defer { resolver.stop() }
        let runner = ProbeRunner(probe: probe, namespace: .current, resolver: resolver, signal: try XCTUnwrap(ProbeSignal()))
        let started = ContinuousClock.now
        let answer = runner.answer(trying: [try IPAddress("127.0.0.2"), try IPAddress("127.0.0.1")], deadline: started + probe.timeout)
        let elapsed = ContinuousClock.now - started
        XCTAssertEqual(answer?.connectivity, .full, "\(answer?.detail ?? "cancelled")")
        XCTAssertEqual(answer?.detail, "connected to 127.0.0.1")
        XCTAssertGreaterThan(elapsed, .seconds(1), "the first address was silent (not refused), so it was given up on")
        XCTAssertLessThan(elapsed, .seconds(3))
    }

    private static func socketAddress(_ text: String, port: UInt16) throws -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, text, &address.sin_addr) == 1 else { throw POSIXError(.EINVAL) }
        return address
    }

    /// A socket listening on `text:port` with a backlog of 0, and its port.
    private static func listener(_ text: String, port: UInt16) throws -> (Int32, UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = try socketAddress(text, port: port)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && listen(descriptor, 0) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            _ = close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }
}
