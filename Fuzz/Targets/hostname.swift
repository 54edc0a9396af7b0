// libFuzzer target: host names given to PathMonitor(host:).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHostName(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let name = try HostName.validate(text)
        precondition(name.utf8.count <= HostName.maximumLength, "accepted an over-long name")
        precondition(!name.utf8.contains(0), "accepted a NUL byte")
    } catch {
        precondition(!error.description.isEmpty)
        precondition(!error.description.contains("\n"), "an error line must stay one line")
    }
    return 0
}
