import Dispatch
import Foundation
@testable import NetworkReachabilityCore
import XCTest
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// `https://` probes against a real HTTPS server in the upstream namespace, with certificates
/// made for the run: verified, named, bounded, and each TLS failure `limited` with its reason.
final class ConnectivityTLSTests: XCTestCase {
    func testFull_withTheTestCA_sendsSNI_andTheRequestOverTLS() throws {
        try withTLSLab { tls in
            let path = try tls.checkedPath("good", probe: try tls.probe())
            XCTAssertEqual(path.connectivity, .full, "\(path)")
            XCTAssertNil(path.connectivityReason)
            XCTAssertEqual(path.connectivitySource, .probe(TLSLab.url))
            XCTAssertEqual(tls.serverNameIndication, TLSLab.host, "SNI")
            XCTAssertEqual(tls.requests, 1, "the GET went over TLS")
            // An address as the host: checked against the certificate's IP entry, no SNI sent.
            let byAddress = try tls.checkedPath("good", probe: try tls.probe("https://10.88.0.2:8443/generate_204"))
            XCTAssertEqual(byAddress.connectivity, .full, "\(byAddress)")
            XCTAssertEqual(tls.serverNameIndication, "-")
        }
    }

    func testEachTLSFailure_isLimitedWithItsReason_withinTheTimeout() throws {
        try withTLSLab { tls in
            let cases: [(mode: String, trustingTestCA: Bool, reason: String)] = [
                ("wrongname", true, "TLS: wrong host name"),
                ("expired", true, "TLS: certificate expired"),
                ("selfsigned", true, "TLS: certificate not trusted"),
                ("good", false, "TLS: certificate not trusted"),  // the system's store does not hold the test CA
                ("stall", true, "TLS: timed out"),
                ("plain", true, "TLS: handshake failed"),
            ]
            for item in cases {
                let started = DispatchTime.now()
                let path = try tls.checkedPath(item.mode, probe: try tls.probe(trustingTestCA: item.trustingTestCA))
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
                XCTAssertEqual(path.connectivity, .limited, "\(item.mode): \(path)")
                XCTAssertEqual(path.connectivityReason, item.reason, "\(item.mode): \(path)")
                XCTAssertLessThan(seconds, 1.5 + 5, "\(item.mode) bounded by the probe's timeout")
            }
            XCTAssertEqual(tls.requests, 0, "no request is sent over a connection that failed its checks")
        }
    }

    func testCancelInFlight_leavesNoDescriptor() throws {
        try withTLSLab { tls in
            // The process-wide TLS context is made by the first https:// probe: made before counting.
            XCTAssertEqual(try tls.checkedPath("good", probe: try tls.probe()).connectivity, .full)
            tls.setMode("stall")
            let connectionsBefore = tls.connections
            try assertCancelInFlightLeavesNothing(tls.lab, probe: try tls.probe(timeout: .seconds(5))) {
                tls.connections > connectionsBefore
            }
        }
    }

    func testNoTLSWithoutAnHTTPSProbe() throws {
        try withTLSLab { tls in
            let before = TLSContext.made
            XCTAssertEqual(try tls.lab.checkedPath("204", probe: try ProbeLab.probe()).connectivity, .full)
            XCTAssertEqual(try tls.lab.checkedPath("204", probe: try ProbeLab.probe("tcp://10.88.0.2:8080")).connectivity, .full)
            XCTAssertEqual(TLSContext.made, before, "no TLS context for http:// and tcp:// probes")
            XCTAssertEqual(tls.connections, 0, "nothing reached the HTTPS server")
        }
    }
}
