#if canImport(Glibc)
import Glibc
#endif

// libFuzzer target: sockaddr buffers of any family and length, as PathMonitor(address: UnsafePointer<sockaddr>) reads them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSocketAddress(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // The caller's storage is at least a sockaddr; the declared length is the input's.
    let storage = UnsafeMutableRawPointer.allocate(byteCount: max(size, MemoryLayout<sockaddr>.size), alignment: 8)
    defer { storage.deallocate() }
    storage.initializeMemory(as: UInt8.self, repeating: 0, count: max(size, MemoryLayout<sockaddr>.size))
    storage.copyMemory(from: data, byteCount: size)
    _ = try? IPAddress(sockaddr: storage.assumingMemoryBound(to: sockaddr.self), length: size)
    return 0
}
