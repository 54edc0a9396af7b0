#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

#if !canImport(Darwin)
// BSD's socket addresses begin with a length byte; Linux's do not. Code written for Apple's
// platforms sets it (`zero.sa_len = UInt8(MemoryLayout<sockaddr>.size)`), so these properties let
// it compile unchanged: a set is ignored (Linux sizes an address by its family), and a read gives
// the size of the struct, which is what such code stores there.

extension sockaddr {
    /// BSD's length byte: reading gives `MemoryLayout<sockaddr>.size`; setting it does nothing.
    public var sa_len: UInt8 {
        get { UInt8(MemoryLayout<sockaddr>.size) }
        set {}
    }
}

extension sockaddr_in {
    /// BSD's length byte: reading gives `MemoryLayout<sockaddr_in>.size`; setting it does nothing.
    public var sin_len: UInt8 {
        get { UInt8(MemoryLayout<sockaddr_in>.size) }
        set {}
    }
}

extension sockaddr_in6 {
    /// BSD's length byte: reading gives `MemoryLayout<sockaddr_in6>.size`; setting it does nothing.
    public var sin6_len: UInt8 {
        get { UInt8(MemoryLayout<sockaddr_in6>.size) }
        set {}
    }
}
#endif
