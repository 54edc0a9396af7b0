// libFuzzer target: sysfs uevent text, as LinkInspector reads it from fixtures or /sys.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUEvent(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for (key, value) in UEvent.parse(text) {
        precondition(!key.isEmpty && !key.contains("=") && !value.contains("\n"))
    }
    return 0
}
