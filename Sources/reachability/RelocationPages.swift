#if canImport(Glibc)
import Glibc

/// The pages of the executable's own relocation table, handed back once the loader is done.
///
/// A position-independent executable with the Swift runtime linked in carries some 40,000
/// relative relocations (`.rela.dyn`, about 1 MiB): the dynamic loader reads them once, before
/// `main`, and nothing reads them again (lazy binding uses `.rela.plt`, which stays). Their pages
/// stay mapped though, and a `watch` kept beside a service for hours would count them in its
/// resident memory all along. `MADV_DONTNEED` unmaps them; the mapping is private, read-only and
/// never written, so a later read would fault the same bytes back from the file.
enum RelocationPages {
    /// Unmaps the whole pages of the executable's `DT_RELA` table; does nothing when there is
    /// none or it fills no whole page.
    static func release() {
        guard let table = relocationTable() else { return }
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let start = (table.start + page - 1) / page * page
        let end = table.end / page * page
        guard end > start, let address = UnsafeMutableRawPointer(bitPattern: start) else { return }
        madvise(address, Int(end - start), MADV_DONTNEED)
    }

    // ELF's numbers (elf.h), which the Glibc module does not import.
    private static let auxProgramHeaders: UInt = 3, auxProgramHeaderCount: UInt = 5  // AT_PHDR, AT_PHNUM
    private static let programHeaderSize = 56, dynamicEntrySize = 16  // Elf64_Phdr, Elf64_Dyn
    private static let typePHDR: UInt32 = 6, typeDynamic: UInt32 = 2  // PT_PHDR, PT_DYNAMIC
    private static let tagNull: Int64 = 0, tagRela: Int64 = 7, tagRelaSize: Int64 = 8  // DT_NULL, DT_RELA, DT_RELASZ

    /// The address range of the executable's `DT_RELA` table, from its program headers.
    private static func relocationTable() -> (start: UInt, end: UInt)? {
        // getauxval is in libc, but sys/auxv.h is not in the Glibc module.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "getauxval") else { return nil }
        let getauxval = unsafeBitCast(symbol, to: (@convention(c) (UInt) -> UInt).self)
        let headerAddress = getauxval(auxProgramHeaders)
        let count = Int(getauxval(auxProgramHeaderCount))
        guard let headers = UnsafeRawPointer(bitPattern: headerAddress), count > 0 else { return nil }
        // (p_type, p_vaddr) of each Elf64_Phdr.
        let segments = (0..<count).map { index in
            let header = headers + index * programHeaderSize
            return (type: header.loadUnaligned(as: UInt32.self), address: UInt(header.loadUnaligned(fromByteOffset: 16, as: UInt64.self)))
        }
        guard let phdr = segments.first(where: { $0.type == typePHDR }),
              let dynamic = segments.first(where: { $0.type == typeDynamic }) else { return nil }
        // Where the executable was loaded: its program headers' address less the one it was linked at.
        let bias = headerAddress &- phdr.address
        guard var entry = UnsafeRawPointer(bitPattern: bias &+ dynamic.address) else { return nil }
        var address: UInt = 0
        var size: UInt = 0
        while case let tag = entry.loadUnaligned(as: Int64.self), tag != tagNull {
            let value = UInt(entry.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            if tag == tagRela { address = value }
            if tag == tagRelaSize { size = value }
            entry += dynamicEntrySize
        }
        guard address != 0, size != 0 else { return nil }
        // glibc's loader rewrites the address to the loaded one in place; as linked it is below the bias.
        let start = address < bias ? bias &+ address : address
        return (start, start &+ size)
    }
}
#else
enum RelocationPages {
    static func release() {}
}
#endif
