import Dispatch
import Foundation
import NetworkReachability
import XCTest

/// The contract's table (connectivity.md), against a real HTTP server in a namespace of its own.
final class ConnectivityAnswerTests: XCTestCase {
    /// Given a probe whose server answers as `mode`, when a monitor that is not started checks
    /// connectivity, then it gets `expected`.
    private func check(_ mode: String, url: String = ProbeLab.url, expecting: String? = nil,
                       file: StaticString = #filePath, line: UInt = #line, in lab: ProbeLab) throws -> NetworkPath {
        try lab.checkedPath(mode, probe: try ProbeLab.probe(url, expecting: expecting))
    }

    func testFull_on204_andOn200WithTheExpectedText() throws {
        try withProbeLab { lab in
            let path = try check("204", in: lab)
            XCTAssertEqual(path.connectivity, .full, "\(path)")
            XCTAssertNil(path.portalURL)
            XCTAssertEqual(path.connectivitySource, .probe(ProbeLab.url))
            XCTAssertEqual(try check("200ok", expecting: "connected-ok", in: lab).connectivity, .full)
            XCTAssertEqual(try check("200chunked", expecting: "connected-ok", in: lab).connectivity, .full)
            // A 200 without a text to expect is not the 204 asked for.
            XCTAssertEqual(try check("200ok", in: lab).connectivity, .portal)
        }
    }

    func testPortal_onRedirect_loginPage_and511() throws {
        try withProbeLab { lab in
            let redirected = try check("302", in: lab)
            XCTAssertEqual(redirected.connectivity, .portal)
            XCTAssertEqual(redirected.portalURL, "http://10.88.0.2:8080/login?from=probe", "made absolute")
            let login = try check("login", expecting: "connected-ok", in: lab)
            XCTAssertEqual(login.connectivity, .portal)
            XCTAssertNil(login.portalURL)
            XCTAssertEqual(try check("511", in: lab).connectivity, .portal)
        }
    }

    func testLimited_onClosedPort_silence_unresolvedName_andGarbage() throws {
        try withProbeLab { lab in
            XCTAssertEqual(try check("204", url: "http://10.88.0.2:8081/", in: lab).connectivity, .limited, "refused")
            XCTAssertEqual(try check("204", url: "tcp://10.88.0.2:8081", in: lab).connectivity, .limited, "refused")
            XCTAssertEqual(try check("204", url: "tcp://10.88.0.2:8080", in: lab).connectivity, .full, "accepted")
            let started = DispatchTime.now()
            XCTAssertEqual(try check("silent", in: lab).connectivity, .limited, "timed out")
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            XCTAssertLessThan(seconds, 1.5 + 5, "bounded by the probe's timeout")
            XCTAssertEqual(try check("204", url: "http://no-such-name.invalid/", in: lab).connectivity, .limited)
            XCTAssertEqual(try check("garbage", in: lab).connectivity, .limited)
        }
    }

    func testNone_withoutARoute_sendsNothing() throws {
        try withProbeLab { lab in
            try lab.client.ip("route", "del", "default")
            let monitor = try lab.client.monitor("192.0.2.1")
            monitor.connectivityProbe = try ProbeLab.probe()
            let watch = ConnectivityWatch(monitor)
            watch.wait(for: .none)
            let checked = awaitPath { await monitor.checkConnectivity() }
            XCTAssertEqual(checked.connectivity, .none)
            XCTAssertEqual(lab.connections, 0, "no packet sent for an unsatisfied path")
            monitor.cancel()
        }
    }

    /// Nothing is sent without a probe: the server counts no connection after a monitor's
    /// first delivery, a check, and a short window (the absence of an event cannot be awaited).
    func testNoProbe_sendsNothing_andSaysUnknown() throws {
        try withProbeLab { lab in
            let watch = ConnectivityWatch(try lab.client.generalMonitor())
            watch.paths.wait(forCount: 1)
            XCTAssertEqual(watch.paths.all.first?.connectivity, .unknown)
            let checked = awaitPath { await watch.monitor.checkConnectivity() }
            XCTAssertEqual(checked.connectivity, .unknown)
            Thread.sleep(forTimeInterval: 1)  // a window in which a probe would have run
            XCTAssertEqual(lab.connections, 0)
            watch.monitor.cancel()
        }
    }

    /// The hostile server: a 1 MiB header line, an endless body, a slowloris head; each answer
    /// comes within the probe's timeout (plus slack for a loaded machine) and reads a capped amount.
    func testHostileServer_boundedTimeAndMemory() throws {
        try withProbeLab { lab in
            for (mode, expecting, expected) in [("bigheader", nil, Connectivity.limited), ("endless", nil, .portal),
                                                ("endless", "connected-ok", .portal), ("slowloris", nil, .limited)] {
                let started = DispatchTime.now()
                let path = try check(mode, expecting: expecting, in: lab)
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
                XCTAssertEqual(path.connectivity, expected, "\(mode) expecting \(expecting ?? "-")")
                XCTAssertLessThan(seconds, 1.5 + 5, "\(mode) bounded by the timeout")
            }
        }
    }
}

/// Runs an async body to its end from a synchronous test.
func awaitPath(_ body: @escaping @Sendable () async -> NetworkPath) -> NetworkPath {
    let result = Recorder<NetworkPath>()
    Task { result.append(await body()) }
    result.wait(forCount: 1)
    return result.all.first ?? NetworkPath(status: .unsatisfied, unsatisfiedReason: nil, flags: [], interface: nil,
                                           availableInterfaces: [], gateways: [], isExpensive: false, isConstrained: false,
                                           supportsIPv4: false, supportsIPv6: false, supportsDNS: false)
}
