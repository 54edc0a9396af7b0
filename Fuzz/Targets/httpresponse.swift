// libFuzzer target: what a server (or a captive portal) answers a connectivity probe, as
// ProbeRunner hands the bytes read so far to HTTPResponseParser, then ProbeVerdict.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPResponse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard case .head(let head) = HTTPResponseParser.parseHead(bytes) else { return 0 }
    precondition(head.bodyOffset <= size, "the body starts inside the bytes given")
    precondition((100...999).contains(head.status))
    precondition(!(100...199).contains(head.status) || head.status == 101, "interim heads are skipped")
    let rest = bytes[head.bodyOffset...]
    for closed in [false, true] {
        if case .body(let body, _) = HTTPResponseParser.decodeBody(rest, framing: head.framing, closed: closed) {
            precondition(body.count <= rest.count, "a body is never longer than what was read")
            let probe = try! ConnectivityProbe(url: "http://192.0.2.1/generate_204", expecting: "ok")
            let answer = ProbeVerdict.answer(for: head, body: body, probe: probe)
            precondition((answer.portalURL?.utf8.count ?? 0) <= ProbeLimits.locationBytes + 64)
        }
    }
    return 0
}
