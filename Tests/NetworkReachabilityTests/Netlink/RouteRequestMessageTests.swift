import CNetlink
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

/// The RTM_GETROUTE request built by hand is, byte for byte, what libnl's message API builds.
final class RouteRequestMessageTests: XCTestCase {
    private let ip = Fixture.ip

    /// The request as the lookup socket built it with libnl before.
    private func libnlMessage(_ request: RouteRequest, sequence: UInt32, port: UInt32) -> [UInt8] {
        let message = nlmsg_alloc_simple(Int32(RTM_GETROUTE), Int32(NLM_F_REQUEST))!
        defer { nlmsg_free(message) }
        let family = request.destination.family
        var header = rtmsg()
        header.rtm_family = UInt8(family.addressFamily)
        header.rtm_dst_len = UInt8(family.byteCount * 8)
        if let source = request.source, source.family == family { header.rtm_src_len = UInt8(family.byteCount * 8) }
        if request.fibMatch { header.rtm_flags = UInt32(RTM_F_FIB_MATCH) }
        XCTAssertEqual(nlmsg_append(message, &header, MemoryLayout<rtmsg>.size, Int32(NLMSG_ALIGNTO)), 0)
        _ = request.destination.bytes.withUnsafeBytes { nla_put(message, Int32(RTA_DST.rawValue), Int32($0.count), $0.baseAddress) }
        if let source = request.source, source.family == family {
            _ = source.bytes.withUnsafeBytes { nla_put(message, Int32(RTA_SRC.rawValue), Int32($0.count), $0.baseAddress) }
        }
        if let oif = request.outputInterface { _ = nla_put_u32(message, Int32(RTA_OIF.rawValue), UInt32(oif)) }
        let header0 = nlmsg_hdr(message)!
        header0.pointee.nlmsg_seq = sequence
        header0.pointee.nlmsg_pid = port
        return Array(UnsafeRawBufferPointer(start: header0, count: Int(header0.pointee.nlmsg_len)))
    }

    private func encoded(_ request: RouteRequest, sequence: UInt32, port: UInt32) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: RouteRequest.maximumMessageLength, alignment: 8)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0xAA)  // leftovers of an earlier request
        let length = request.encode(into: buffer, sequence: sequence, port: port)
        return Array(buffer[..<length])
    }

    func testEncode_matchesLibnl_forEveryShapeOfRequest() {
        let requests = [
            RouteRequest(destination: ip("10.1.2.3")),
            RouteRequest(destination: ip("10.1.2.3"), fibMatch: true),
            RouteRequest(destination: ip("10.1.2.3"), source: ip("192.0.2.7"), outputInterface: 4),
            RouteRequest(destination: ip("10.1.2.3"), source: ip("2001:db8::7"), outputInterface: 4, fibMatch: true),
            RouteRequest(destination: ip("2001:db8::1")),
            RouteRequest(destination: ip("2001:db8::1"), source: ip("2001:db8::7"), outputInterface: 9, fibMatch: true),
            RouteRequest(destination: ip("::"), outputInterface: 2),
        ]
        for request in requests {
            XCTAssertEqual(encoded(request, sequence: 77, port: 4242), libnlMessage(request, sequence: 77, port: 4242), "\(request)")
        }
    }

    func testLongestRequest_fitsTheBuffer() {
        let longest = RouteRequest(destination: ip("2001:db8::1"), source: ip("2001:db8::7"), outputInterface: 9)
        XCTAssertEqual(encoded(longest, sequence: 1, port: 1).count, RouteRequest.maximumMessageLength)
    }
}
