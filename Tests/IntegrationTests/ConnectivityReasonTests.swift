import Foundation
import NetworkReachability
import XCTest

/// Every `limited`, `portal` and `none` answer says why (`NetworkPath.connectivityReason`), for
/// each failure the probe lab's server can play; `full` and `unknown` say nothing.
final class ConnectivityReasonTests: XCTestCase {
    private func check(_ mode: String, url: String = ProbeLab.url, expecting: String? = nil,
                       in lab: ProbeLab) throws -> NetworkPath {
        try lab.checkedPath(mode, probe: try ProbeLab.probe(url, expecting: expecting))
    }

    func testEachFailure_hasItsReason() throws {
        try withProbeLab { lab in
            let cases: [(mode: String, url: String, expecting: String?, connectivity: Connectivity, reason: String?)] = [
                ("204", ProbeLab.url, nil, .full, nil),
                ("204", "tcp://10.88.0.2:8080", nil, .full, nil),
                ("204", "http://10.88.0.2:8081/", nil, .limited, "refused"),
                ("204", "tcp://10.88.0.2:8081", nil, .limited, "refused"),
                ("204", "http://no-such-name.invalid/", nil, .limited, "name not resolved"),
                ("204", "http://10.99.0.1/", nil, .limited, "timed out"),  // routed, but nobody answers the SYN
                ("silent", ProbeLab.url, nil, .limited, "timed out"),
                ("slowloris", ProbeLab.url, nil, .limited, "timed out"),
                ("garbage", ProbeLab.url, nil, .limited, "not HTTP"),
                ("bigheader", ProbeLab.url, nil, .limited, "not HTTP"),
                ("302", ProbeLab.url, nil, .portal, "redirect"),
                ("login", ProbeLab.url, "connected-ok", .portal, "status 200 without the expected text"),
                ("endless", ProbeLab.url, "connected-ok", .portal, "status 200 without the expected text"),
                ("511", ProbeLab.url, nil, .portal, "status 511"),
                ("200ok", ProbeLab.url, nil, .portal, "status 200"),
            ]
            for item in cases {
                let path = try check(item.mode, url: item.url, expecting: item.expecting, in: lab)
                let what = "\(item.mode) \(item.url): \(path)"
                XCTAssertEqual(path.connectivity, item.connectivity, what)
                XCTAssertEqual(path.connectivityReason, item.reason, what)
            }
        }
    }

    func testReset_none_andNoProbe() throws {
        try withProbeLab { lab in
            XCTAssertEqual(try check("reset", in: lab).connectivityReason, "reset")
            let unprobed = try lab.client.generalMonitor()
            XCTAssertNil(awaitPath { await unprobed.checkConnectivity() }.connectivityReason, "no probe: no reason")
            try lab.client.ip("route", "del", "default")
            let monitor = try lab.client.monitor("192.0.2.1")
            monitor.connectivityProbe = try ProbeLab.probe()
            let path = awaitPath { await monitor.checkConnectivity() }
            XCTAssertEqual(path.connectivity, .none)
            XCTAssertEqual(path.connectivityReason, "no route")
        }
    }
}
