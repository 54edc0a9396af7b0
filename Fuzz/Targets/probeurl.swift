// libFuzzer target: the URL given to ConnectivityProbe (--probe), validated before anything is sent.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProbeURL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let probe = try? ConnectivityProbe(url: text) else { return 0 }
    precondition(probe.port != 0, "port 0 is rejected")
    precondition(!probe.host.isEmpty, "a host is required")
    precondition(!text.contains(" "), "a space is rejected")
    precondition(probe.kind == .tcp || probe.path.hasPrefix("/"))
    return 0
}
