// libFuzzer target: what a network's captive-portal API answers (RFC 8908), as the prober
// hands the capped body to CaptivePortalAPIAnswer and its StrictJSON.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCaptiveJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if case .success(let status) = CaptivePortalAPIAnswer.parse(bytes) {
        precondition(size <= CaptivePortalAPIAnswer.bodyBytes, "a body over the cap is refused")
        for url in [status.userPortalURL, status.venueInfoURL].compactMap({ $0 }) {
            precondition(url.hasPrefix("https://") && url.utf8.count <= ProbeLimits.locationBytes)
        }
        precondition((status.secondsRemaining ?? 0) >= 0 && (status.bytesRemaining ?? 0) >= 0)
    }
    _ = StrictJSON.parse(bytes)
    return 0
}
