import ReachabilityModel
import ReachabilityResolution
import ReachabilitySystem

/// One fetch of a network's captive-portal API (RFC 8908): an HTTPS GET of the announced URI
/// with `Accept: application/captive+json`, made as an `https://` probe is (the same resolver,
/// connection, TLS rules and deadline, through `ProbeRunner`), its answer read with caps: the
/// head as a probe's, the body up to `CaptivePortalAPIAnswer.bodyBytes`.
package struct CaptivePortalAPIClient {
    package let uri: String
    package let runner: ProbeRunner

    /// - Parameters: `caFile`: the roots to trust instead of the system's (a private CA); nil: the system's.
    /// - Throws: when the URI is not an `https://` URL a probe could fetch (the announcement's
    ///   parsers accept only those; a fixture could hold another).
    package init(uri: String, timeout: Duration, caFile: String?, namespace: NetworkNamespace,
                 resolver: ResolverPool?, signal: ProbeSignal) throws(ReachabilityError) {
        let probe = try ConnectivityProbe(url: uri, timeout: timeout, interval: timeout, caFile: caFile)
        guard probe.kind == .https else { throw .invalidProbe(uri, reason: "the captive-portal API is fetched over https:// only") }
        self.uri = uri
        runner = ProbeRunner(probe: probe, namespace: namespace, resolver: resolver, signal: signal)
    }

    /// Fetches and reads the API's answer. - Returns: the status, or why there is none (for the
    /// log); nil when cancelled.
    package func fetch() -> Result<CaptivePortalStatus, ProbeFailure>? {
        let deadline = ContinuousClock.now + runner.probe.timeout
        let addresses: [IPAddress]
        switch runner.resolve(deadline: deadline) {
        case .success(let found): addresses = found
        case .failure(.cancelled): return nil
        case .failure(let failure): return .failure(failure)
        }
        switch runner.exchanging(with: addresses, deadline: deadline, { transport, _ throws(ProbeFailure) in try read(over: transport) }) {
        case .failure(.cancelled): return nil
        case .failure(let failure): return .failure(failure)
        case .success(let answer): return answer
        }
    }

    /// The exchange: a connection that fails throws (the next address gets its turn, as for a
    /// probe); an answer that is not the API's is returned as a failure, since the server answered
    /// and asking the next address would only fetch it again.
    private func read(over transport: any ProbeTransport) throws(ProbeFailure) -> Result<CaptivePortalStatus, ProbeFailure> {
        try transport.send(runner.request(accepting: CaptivePortalAPIAnswer.mediaType))
        var buffer: [UInt8] = []
        var open = true
        var head: HTTPResponseHead?
        let bodyCap = CaptivePortalAPIAnswer.bodyBytes
        while true {
            if head == nil {
                switch HTTPResponseParser.parseHead(buffer) {
                case .malformed(let why): return .failure(.failed(why))
                case .head(let parsed):
                    guard parsed.status == 200 else { return .failure(.failed("status \(parsed.status)")) }
                    guard parsed.contentType == CaptivePortalAPIAnswer.mediaType else {
                        return .failure(.failed("content type \(parsed.contentType ?? "none"), not \(CaptivePortalAPIAnswer.mediaType)"))
                    }
                    if case .contentLength(let length) = parsed.framing, length > bodyCap {
                        return .failure(.failed("a body of \(length) bytes, over the cap of \(bodyCap)"))
                    }
                    head = parsed
                case .needMore:
                    guard buffer.count < ProbeLimits.headBytes else {
                        return .failure(.failed("response head longer than \(ProbeLimits.headBytes) bytes"))
                    }
                    guard open else { return .failure(.failed("closed before a full response head")) }
                }
            }
            if let head {
                let bodyBytes = buffer[min(head.bodyOffset, buffer.count)...]
                switch HTTPResponseParser.decodeBody(bodyBytes, framing: head.framing, closed: !open) {
                case .malformed(let why): return .failure(.failed("body: \(why)"))
                case .body(let body, let complete):
                    if complete || !open {
                        switch CaptivePortalAPIAnswer.parse(body) {
                        case .success(let status): return .success(status)
                        case .failure(let why): return .failure(.failed("not the API's JSON: \(why)"))
                        }
                    }
                    // The framing's own bytes (chunk sizes) count too: a little slack over the body's cap.
                    guard bodyBytes.count <= bodyCap + 1024 else {
                        return .failure(.failed("a body over the cap of \(bodyCap) bytes"))
                    }
                }
            }
            let cap = (head.map { $0.bodyOffset + bodyCap + 1025 } ?? ProbeLimits.headBytes) - buffer.count
            open = try transport.receive(into: &buffer, limit: max(cap, 1))
        }
    }
}
