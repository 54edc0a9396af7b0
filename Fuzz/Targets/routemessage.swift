// libFuzzer target: RTM_NEWROUTE payloads (struct rtmsg and attributes), as RouteLookupSocket
// hands the kernel's answer to RouteMessageParser; and the same bytes as an RTM_DELROUTE, as the
// event socket reads a deletion (`deletedRoute`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouteMessage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // A copy of exactly `size` bytes, so ASan catches any read past the message.
    let payload = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
    defer { payload.deallocate() }
    payload.copyMemory(from: UnsafeRawBufferPointer(start: data, count: size))
    if let deleted = RouteMessageParser.deletedRoute(fromPayload: UnsafeRawBufferPointer(payload)) {
        precondition(size >= RouteMessageParser.headerLength)
        precondition((deleted.outputInterface ?? 1) > 0, "an interface index is positive or absent")
    }
    guard let entry = RouteMessageParser.entry(fromPayload: UnsafeRawBufferPointer(payload)) else { return 0 }
    precondition(size >= RouteMessageParser.headerLength)
    precondition((entry.outputInterface ?? 1) > 0, "an interface index is positive or absent")
    precondition(entry.prefixLength <= 255)
    return 0
}
