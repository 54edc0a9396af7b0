// libFuzzer target: an RTM_NEWNDUSEROPT payload (RFC 8910's option 37 in a Router Advertisement), as the kernel would send it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDUserOption(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    switch NDUserOptionParser.read(bytes) {
    case .announcement(.api(let index, let uri)):
        precondition(index > 0, "an interface index")
        precondition(uri.utf8.count <= NDUserOptionParser.uriLimit, "capped")
        precondition(uri.lowercased().hasPrefix("https://"), "https only")
        precondition(uri.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f }, "printable ASCII only")
    case .announcement(.unrestricted(let index)):
        precondition(index > 0, "an interface index")
    case .refused(let refusal):
        // What the log shows of a hostile value: printable ASCII, capped, never the raw bytes.
        precondition(refusal.value.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7f }, "escaped")
        precondition(refusal.value.utf8.count <= 4 * EscapedBytes.defaultLimit + 32, "capped")
        precondition(!refusal.reason.isEmpty, "a reason")
    case .nothing:
        break
    }
    return 0
}
