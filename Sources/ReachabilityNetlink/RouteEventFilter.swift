import CNetlink
import ReachabilityModel
#if canImport(Glibc)
import Glibc
#endif

/// The classic BPF program the kernel runs on each datagram for the event socket, before it
/// queues it: a lone route message (RTM_NEWROUTE, RTM_DELROUTE) of IPv4 or IPv6 whose destination
/// prefix covers none of the watched destinations is dropped there, so a route no question meets
/// never wakes the engine (udev's monitor drops the uevents of subsystems nobody asked for the same
/// way). Everything else passes: other messages, several messages in one datagram, a default
/// route, and a route message the program cannot read to its destination.
///
/// The program reads a message as the kernel lays it out: the header (16 bytes, the length at 0
/// and the type at 4, in host order), `rtmsg` (the family at 16, the prefix length at 17), then
/// attributes, whose first few it walks for RTA_DST (the kernel puts RTA_TABLE first and RTA_DST
/// second). Classic BPF loads words and half-words in network order: a field in host order is
/// compared with its value as such a load reads it, and a length is put together from its bytes.
/// An address's words compare as loaded, in network order, under the prefix's mask.
package enum RouteEventFilter {
    /// The attributes walked for RTA_DST; past them the message passes.
    static let attributesWalked = 4

    /// The program, or nil when it would not fit classic BPF's jumps (too many destinations: the
    /// caller then lets every route message through).
    package static func program(watching destinations: [IPAddress]) -> [sock_filter]? {
        var program = Assembler()
        let accept = program.newLabel(), route = program.newLabel()
        let ipv4 = program.newLabel(), ipv6 = program.newLabel()
        // One message filling the datagram, of a route's type.
        program.emit(loadLength)
        program.emit(store, Slot.length)
        program.loadHostUInt16(atByte: 0, indexed: false)
        program.emit(loadIndexFromSlot, Slot.length)
        program.jump(equalToIndex, ifTrue: nil, ifFalse: accept)
        program.emit(loadHalfAbsolute, 4)
        program.jump(equal, networkOrder(UInt16(RTM_NEWROUTE)), ifTrue: route, ifFalse: nil)
        program.jump(equal, networkOrder(UInt16(RTM_DELROUTE)), ifTrue: route, ifFalse: accept)
        program.place(route)
        program.emit(loadByteAbsolute, 16)
        program.jump(equal, UInt32(AF_INET), ifTrue: ipv4, ifFalse: nil)
        program.jump(equal, UInt32(AF_INET6), ifTrue: nil, ifFalse: accept)
        program.jump(to: ipv6)  // past the IPv4 part, farther than a conditional jump reaches
        program.place(accept)
        program.emit(returnConstant, acceptAll)

        program.place(ipv4)
        program.family(.ipv4, destinations: destinations.filter { $0.family == .ipv4 })
        program.place(ipv6)
        program.family(.ipv6, destinations: destinations.filter { $0.family == .ipv6 })
        return program.assembled()
    }

    /// What a program's return value keeps of a datagram: all of it, or nothing.
    static let acceptAll: UInt32 = 0xFFFF_FFFF
    static let dropAll: UInt32 = 0

    /// The value a half-word load reads for `value` stored in host order.
    static func networkOrder(_ value: UInt16) -> UInt32 { UInt32(value.bigEndian) }

    // Classic BPF's instructions (linux/filter.h), by what they do.
    static let loadLength = UInt16(BPF_LD | BPF_W | BPF_LEN)
    static let loadConstant = UInt16(BPF_LD | BPF_W | BPF_IMM)
    static let loadWordIndexed = UInt16(BPF_LD | BPF_W | BPF_IND)
    static let loadHalfAbsolute = UInt16(BPF_LD | BPF_H | BPF_ABS)
    static let loadHalfIndexed = UInt16(BPF_LD | BPF_H | BPF_IND)
    static let loadByteAbsolute = UInt16(BPF_LD | BPF_B | BPF_ABS)
    static let loadByteIndexed = UInt16(BPF_LD | BPF_B | BPF_IND)
    static let loadSlot = UInt16(BPF_LD | BPF_MEM)
    static let loadIndexFromSlot = UInt16(BPF_LDX | BPF_W | BPF_MEM)
    static let store = UInt16(BPF_ST)
    static let addConstant = UInt16(BPF_ALU | BPF_ADD | BPF_K)
    static let addIndex = UInt16(BPF_ALU | BPF_ADD | BPF_X)
    static let andConstant = UInt16(BPF_ALU | BPF_AND | BPF_K)
    static let andIndex = UInt16(BPF_ALU | BPF_AND | BPF_X)
    static let orIndex = UInt16(BPF_ALU | BPF_OR | BPF_X)
    static let xorConstant = UInt16(BPF_ALU | BPF_XOR | BPF_K)
    static let shiftLeftConstant = UInt16(BPF_ALU | BPF_LSH | BPF_K)
    static let shiftLeftByIndex = UInt16(BPF_ALU | BPF_LSH | BPF_X)
    static let negate = UInt16(BPF_ALU | BPF_NEG)
    static let indexFromAccumulator = UInt16(BPF_MISC | BPF_TAX)
    static let jumpAlways = UInt16(BPF_JMP | BPF_JA)
    static let equal = UInt16(BPF_JMP | BPF_JEQ | BPF_K)
    static let equalToIndex = UInt16(BPF_JMP | BPF_JEQ | BPF_X)
    static let greater = UInt16(BPF_JMP | BPF_JGT | BPF_K)
    static let greaterThanIndex = UInt16(BPF_JMP | BPF_JGT | BPF_X)
    static let greaterOrEqual = UInt16(BPF_JMP | BPF_JGE | BPF_K)
    static let returnConstant = UInt16(BPF_RET | BPF_K)

    /// The scratch words the program keeps values in (classic BPF has sixteen).
    enum Slot {
        /// The datagram's length.
        static let length: UInt32 = 0
        /// Where the attribute being read starts.
        static let offset: UInt32 = 1
        /// A value being put together.
        static let partial: UInt32 = 2
        /// The prefix's mask, a word of the address each (four for IPv6).
        static let mask: UInt32 = 3
        /// The route's destination, a word each.
        static let destination: UInt32 = 7
    }
}

/// Classic BPF's instructions, with jumps to labels resolved once the program is whole.
private struct Assembler {
    typealias Filter = RouteEventFilter
    private var code: [sock_filter] = []
    private var placed: [Int: Int] = [:]
    /// Jumps whose targets are labels: the instruction, and its labels if taken and if not.
    private var jumps: [(at: Int, ifTrue: Int?, ifFalse: Int?)] = []
    private var labels = 0

    mutating func newLabel() -> Int {
        labels += 1
        return labels
    }

    mutating func place(_ label: Int) { placed[label] = code.count }

    mutating func emit(_ operation: UInt16, _ constant: UInt32 = 0) {
        code.append(sock_filter(code: operation, jt: 0, jf: 0, k: constant))
    }

    /// A conditional jump; nil goes on to the next instruction.
    mutating func jump(_ operation: UInt16, _ constant: UInt32 = 0, ifTrue: Int?, ifFalse: Int?) {
        jumps.append((code.count, ifTrue, ifFalse))
        emit(operation, constant)
    }

    mutating func jump(to label: Int) {
        jumps.append((code.count, label, nil))
        emit(Filter.jumpAlways)
    }

    /// The program, or nil when a conditional jump reaches farther than classic BPF's 255.
    func assembled() -> [sock_filter]? {
        var code = code
        for jump in jumps {
            func distance(_ label: Int?) -> Int? {
                guard let label else { return 0 }
                guard let target = placed[label], target > jump.at else { return nil }
                return target - jump.at - 1
            }
            guard let ifTrue = distance(jump.ifTrue), let ifFalse = distance(jump.ifFalse) else { return nil }
            if code[jump.at].code == Filter.jumpAlways {
                code[jump.at].k = UInt32(ifTrue)
            } else {
                guard ifTrue <= 255, ifFalse <= 255 else { return nil }
                code[jump.at].jt = UInt8(ifTrue)
                code[jump.at].jf = UInt8(ifFalse)
            }
        }
        return code
    }

    /// Puts the host-order half-word at byte `offset` (after the index register's value, when
    /// `indexed`) in the accumulator. Uses the partial slot and, unless on a big-endian host, the
    /// index register.
    mutating func loadHostUInt16(atByte offset: UInt32, indexed: Bool) {
        let loadByte = indexed ? Filter.loadByteIndexed : Filter.loadByteAbsolute
        if UInt16(1).bigEndian == 1 {
            emit(indexed ? Filter.loadHalfIndexed : Filter.loadHalfAbsolute, offset)
            return
        }
        emit(loadByte, offset + 1)
        emit(Filter.shiftLeftConstant, 8)
        emit(Filter.store, Filter.Slot.partial)
        emit(loadByte, offset)
        emit(Filter.loadIndexFromSlot, Filter.Slot.partial)
        emit(Filter.orIndex)
    }

    /// The route message of `family` from its prefix length on: passed when its prefix covers one
    /// of `destinations`, dropped otherwise.
    mutating func family(_ family: IPAddress.Family, destinations: [IPAddress]) {
        let words = UInt32(family.byteCount / 4)
        let accept = newLabel(), found = newLabel()
        // Every slot `found` reads is stored before the first jump to `accept`: the kernel's check
        // of classic BPF carries what was stored before a return to the instruction after it.
        for word in 0..<words { mask(word: word) }
        emit(Filter.loadConstant, UInt32(MemoryLayout<nlmsghdr>.size + MemoryLayout<rtmsg>.size))
        emit(Filter.store, Filter.Slot.offset)
        emit(Filter.loadByteAbsolute, 17)
        jump(Filter.equal, 0, ifTrue: accept, ifFalse: nil)  // a default route covers all
        jump(Filter.greater, words * 32, ifTrue: accept, ifFalse: nil)
        // The attributes, from the first: RTA_DST found, or the message passes.
        let attributeSize = UInt32(MemoryLayout<rtattr>.size) + words * 4
        for _ in 0..<RouteEventFilter.attributesWalked {
            let isDestination = newLabel(), next = newLabel()
            // Room in the datagram for an attribute holding an address.
            emit(Filter.loadSlot, Filter.Slot.offset)
            emit(Filter.addConstant, attributeSize)
            emit(Filter.loadIndexFromSlot, Filter.Slot.length)
            jump(Filter.greaterThanIndex, ifTrue: accept, ifFalse: nil)
            emit(Filter.loadIndexFromSlot, Filter.Slot.offset)
            emit(Filter.loadHalfIndexed, 2)
            jump(Filter.equal, Filter.networkOrder(UInt16(RTA_DST.rawValue)), ifTrue: isDestination, ifFalse: next)
            place(isDestination)
            loadHostUInt16(atByte: 0, indexed: true)
            jump(Filter.equal, attributeSize, ifTrue: found, ifFalse: accept)
            place(next)
            // On to the next attribute: its length, aligned to four bytes.
            loadHostUInt16(atByte: 0, indexed: true)
            jump(Filter.greaterOrEqual, UInt32(MemoryLayout<rtattr>.size), ifTrue: nil, ifFalse: accept)
            emit(Filter.addConstant, 3)
            emit(Filter.andConstant, ~UInt32(3))
            emit(Filter.loadIndexFromSlot, Filter.Slot.offset)
            emit(Filter.addIndex)
            emit(Filter.store, Filter.Slot.offset)
        }
        place(accept)
        emit(Filter.returnConstant, Filter.acceptAll)
        place(found)
        emit(Filter.loadIndexFromSlot, Filter.Slot.offset)
        for word in 0..<words {
            emit(Filter.loadWordIndexed, UInt32(MemoryLayout<rtattr>.size) + word * 4)
            emit(Filter.store, Filter.Slot.destination + word)
        }
        for destination in destinations { compare(destination, words: words) }
        emit(Filter.returnConstant, Filter.dropAll)
    }

    /// Stores the mask of the prefix's bits in word `word` of the address (any prefix length:
    /// none shifts by 32).
    private mutating func mask(word: UInt32) {
        let full = newLabel(), partial = newLabel(), done = newLabel()
        emit(Filter.loadByteAbsolute, 17)
        jump(Filter.greaterOrEqual, 32 * (word + 1), ifTrue: full, ifFalse: nil)
        jump(Filter.greater, 32 * word, ifTrue: partial, ifFalse: nil)
        emit(Filter.loadConstant, 0)  // the prefix ends before this word
        emit(Filter.store, Filter.Slot.mask + word)
        jump(to: done)
        place(full)
        emit(Filter.loadConstant, 0xFFFF_FFFF)
        emit(Filter.store, Filter.Slot.mask + word)
        jump(to: done)
        place(partial)
        // The word's first (length - 32 × word) bits: all ones shifted left by the rest.
        emit(Filter.negate)
        emit(Filter.addConstant, 32 * (word + 1))
        emit(Filter.indexFromAccumulator)
        emit(Filter.loadConstant, 0xFFFF_FFFF)
        emit(Filter.shiftLeftByIndex)
        emit(Filter.store, Filter.Slot.mask + word)
        place(done)
    }

    /// Passes the message when `destination` lies inside its prefix.
    private mutating func compare(_ destination: IPAddress, words: UInt32) {
        let differs = newLabel()
        destination.withUnsafeBytes { bytes in
            for word in 0..<Int(words) {
                let value = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[word * 4 + $1]) }
                emit(Filter.loadSlot, Filter.Slot.destination + UInt32(word))
                emit(Filter.xorConstant, value)
                emit(Filter.loadIndexFromSlot, Filter.Slot.mask + UInt32(word))
                emit(Filter.andIndex)
                jump(Filter.equal, 0, ifTrue: nil, ifFalse: differs)
            }
        }
        emit(Filter.returnConstant, Filter.acceptAll)
        place(differs)
    }
}
