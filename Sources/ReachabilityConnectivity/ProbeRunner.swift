import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// One run of a probe, start to answer, on the prober's own thread (it blocks in `poll`, bounded
/// by the probe's timeout, and wakes at once on a cancel).
package struct ProbeRunner {
    package let probe: ConnectivityProbe
    package let namespace: NetworkNamespace
    /// The pool of the namespace's engine; nil when there is none (the namespace vanished, or
    /// could not be opened), and then a name fails at once rather than after the timeout.
    package let resolver: ResolverPool?
    package let signal: ProbeSignal

    /// - Returns: the answer, or nil when the probe was cancelled.
    package func run() -> ConnectivityAnswer? {
        let deadline = ContinuousClock.now + probe.timeout
        let addresses: [IPAddress]
        switch resolve(deadline: deadline) {
        case .success(let found): addresses = found
        case .failure(.cancelled): return nil
        case .failure(let failure): return limited(failure.detail, reason: ConnectivityReason.nameNotResolved)
        }
        return answer(trying: addresses, deadline: deadline)
    }

    private func limited(_ detail: String, reason: String) -> ConnectivityAnswer {
        ConnectivityAnswer(connectivity: .limited, source: .probe(probe.url), detail: detail, reason: reason)
    }

    /// Connects to each address in turn until one answers. - Returns: nil when cancelled.
    package func answer(trying addresses: [IPAddress], deadline: ContinuousClock.Instant) -> ConnectivityAnswer? {
        let result = exchanging(with: addresses, deadline: deadline) { transport, address throws(ProbeFailure) in
            if probe.kind == .tcp {
                return ConnectivityAnswer(connectivity: .full, source: .probe(probe.url), detail: "connected to \(address)")
            }
            return try exchange(over: transport)
        }
        switch result {
        case .success(let answer): return answer
        case .failure(.cancelled): return nil
        case .failure(let failure): return limited(failure.detail, reason: failure.reason)
        }
    }

    /// Connects to each address in turn (TLS over the connection for `https://`, inside the
    /// namespace) and runs `exchange` on the first that connects. A connect that fails or runs out
    /// of its share, or an exchange that fails outright, gives the next address its turn; a
    /// timeout or a TLS failure ends the run (the time is spent, or the network answered).
    package func exchanging<Answer>(
        with addresses: [IPAddress], deadline: ContinuousClock.Instant,
        _ exchange: (any ProbeTransport, IPAddress) throws(ProbeFailure) -> Answer
    ) -> Result<Answer, ProbeFailure> {
        if probe.kind == .https {
            // Without OpenSSL no https:// exchange can succeed: say what to install, not what the
            // connection met (a refused or silent server would hide the missing package).
            do throws(OpenSSLUnavailable) {
                _ = try OpenSSLLibrary.shared()
            } catch {
                return .failure(error.probeFailure)
            }
        }
        var lastFailure = ProbeFailure.failed("no address")
        for (index, address) in addresses.enumerated() {
            do throws(ProbeFailure) {
                let connectBy = Self.connectDeadline(from: .now, to: deadline, addressesLeft: addresses.count - index)
                let connection = try ProbeConnection(to: address, port: probe.port, namespace: namespace,
                                                     signal: signal, deadline: deadline, connectBy: connectBy)
                do throws(ProbeFailure) {
                    // TLS, when asked for, over the connection made as for http://, inside the namespace.
                    let transport: any ProbeTransport =
                        probe.kind == .https ? try TLSConnection(over: connection, probe: probe) : connection
                    return .success(try exchange(transport, address))
                } catch {
                    if case .failed = error { lastFailure = error; continue }
                    return .failure(error)
                }
            } catch {
                if case .cancelled = error { return .failure(error) }
                lastFailure = error
            }
        }
        return .failure(lastFailure)
    }

    /// The probe's GET: no cookie, no cache, one request a connection.
    package func request(accepting mediaType: String) -> [UInt8] {
        Array(("GET \(probe.path) HTTP/1.1\r\nHost: \(probe.authority)\r\nUser-Agent: NetworkReachability-probe\r\n"
            + "Accept: \(mediaType)\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n").utf8)
    }

    /// When the connect to one of `addressesLeft` addresses gives up: an equal share of the time
    /// left, at least a second (or all of it), so that an address that drops packets silently (an
    /// IPv6 one tried first, on a network without IPv6) leaves time to try the next ones.
    package static func connectDeadline(from now: ContinuousClock.Instant, to deadline: ContinuousClock.Instant,
                                addressesLeft: Int) -> ContinuousClock.Instant {
        let left = deadline - now
        guard addressesLeft > 1, left > .zero else { return deadline }
        return min(now + max(left / addressesLeft, min(.seconds(1), left)), deadline)
    }

    /// The GET, and the answer read with caps: the head up to `ProbeLimits.headBytes`, the body
    /// up to `bodyBytes` and only when the verdict needs it.
    private func exchange(over connection: any ProbeTransport) throws(ProbeFailure) -> ConnectivityAnswer {
        try connection.send(request(accepting: "*/*"))
        var buffer: [UInt8] = []
        var open = true
        var head: HTTPResponseHead?
        let source = ConnectivitySource.probe(probe.url)
        while true {
            if head == nil {
                switch HTTPResponseParser.parseHead(buffer) {
                case .malformed(let why):
                    return limited(why, reason: ConnectivityReason.notHTTP)
                case .head(let parsed):
                    head = parsed
                case .needMore:
                    if buffer.count >= ProbeLimits.headBytes {
                        return limited("response head longer than \(ProbeLimits.headBytes) bytes", reason: ConnectivityReason.notHTTP)
                    }
                    guard open else {
                        return limited("closed before a full response head", reason: ConnectivityReason.notHTTP)
                    }
                }
            }
            if let head {
                guard ProbeVerdict.needsBody(status: head.status, probe: probe) else {
                    return ProbeVerdict.answer(for: head, body: [], probe: probe)
                }
                let bodyBytes = buffer[min(head.bodyOffset, buffer.count)...]
                switch HTTPResponseParser.decodeBody(bodyBytes, framing: head.framing, closed: !open) {
                case .malformed(let why):
                    return ConnectivityAnswer(connectivity: .portal, source: source, detail: "status 200, body: \(why)",
                                              reason: ConnectivityReason.missingText)
                case .body(let body, let complete):
                    let answer = ProbeVerdict.answer(for: head, body: body, probe: probe)
                    if answer.connectivity == .full || complete || !open || bodyBytes.count >= ProbeLimits.bodyBytes {
                        return answer
                    }
                }
            }
            let cap = (head.map { $0.bodyOffset + ProbeLimits.bodyBytes } ?? ProbeLimits.headBytes) - buffer.count
            do {
                open = try connection.receive(into: &buffer, limit: max(cap, 1))
            } catch {
                // A head that arrived, then a body that trickles: HTTP answered, not as expected.
                if case .timedOut = error, let head { return ProbeVerdict.answer(for: head, body: [], probe: probe) }
                throw error
            }
        }
    }

    package func resolve(deadline: ContinuousClock.Instant) -> Result<[IPAddress], ProbeFailure> {
        if let literal = try? IPAddress(probe.host) { return .success([literal]) }
        guard let resolver else { return .failure(.failed("name '\(probe.host)' not resolved: the namespace cannot be opened")) }
        let outcome = LockedState<ResolutionOutcome?>(nil)
        let signal = self.signal
        resolver.submit(ResolverPool.Job(name: probe.host) { result in
            outcome.withLock { $0 = result }
            signal.wake()
        })
        while true {
            if signal.isCancelled { return .failure(.cancelled) }
            if let result = outcome.withLock({ $0 }) {
                switch result {
                case .addresses(let found) where !found.isEmpty: return .success(found)
                case .addresses, .notFound: return .failure(.failed("name '\(probe.host)' not found"))
                case .noNameServer: return .failure(.failed("name '\(probe.host)' not resolved: no name server"))
                case .temporaryFailure(let why): return .failure(.failed("name '\(probe.host)' not resolved: \(why)"))
                }
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return .failure(.timedOut("resolving '\(probe.host)': timed out")) }
            var fds = [pollfd(fd: signal.descriptor, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, left.pollMilliseconds)
            signal.drain()
        }
    }

    package init(probe: ConnectivityProbe, namespace: NetworkNamespace, resolver: ResolverPool?, signal: ProbeSignal) {
        self.probe = probe
        self.namespace = namespace
        self.resolver = resolver
        self.signal = signal
    }
}
