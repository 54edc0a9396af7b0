// libFuzzer target: address strings with scopes, as PathMonitor(address:) and the command take them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAddress(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let address = try? IPAddress(text) {
        // What parses must print and parse back to the same address.
        let again = try! IPAddress(address.description)
        precondition(again == address, "round trip changed \(text) into \(address.description)")
    } else {
        _ = (try? IPAddress(text)).map(\.description)
    }
    return 0
}
