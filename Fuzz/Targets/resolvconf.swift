// libFuzzer target: resolv.conf text, as supportsDNS and the resolver's noDNSServer read it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResolvConf(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = NameServerConfiguration.hasNameServer(inResolvConf: text)
    return 0
}
