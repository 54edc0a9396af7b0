/// A set of link indexes, the first two kept inline and any more in a `Set`.
///
/// A change of links or addresses touches one link, or two (a veth pair's ends), nearly always:
/// kept in a `Set`, they cost an allocation on every such change, and another where two drains
/// are merged; inline they cost none.
package struct LinkIndexes: Sendable, Equatable, ExpressibleByArrayLiteral, CustomStringConvertible {
    private var first = 0
    private var second = 0
    /// How many of `first` and `second` hold an index: 0, 1 or 2.
    private var inlineCount = 0
    private var more: Set<Int> = []

    package init() {}

    package init(arrayLiteral indexes: Int...) {
        for index in indexes { insert(index) }
    }

    package var isEmpty: Bool { inlineCount == 0 }
    package var count: Int { inlineCount + more.count }

    package func contains(_ index: Int) -> Bool {
        (inlineCount > 0 && first == index) || (inlineCount > 1 && second == index) || (!more.isEmpty && more.contains(index))
    }

    package func contains(where predicate: (Int) -> Bool) -> Bool {
        if inlineCount > 0, predicate(first) { return true }
        if inlineCount > 1, predicate(second) { return true }
        return more.contains(where: predicate)
    }

    package mutating func insert(_ index: Int) {
        guard !contains(index) else { return }
        switch inlineCount {
        case 0: (first, inlineCount) = (index, 1)
        case 1: (second, inlineCount) = (index, 2)
        default: more.insert(index)
        }
    }

    package mutating func formUnion(_ other: LinkIndexes) {
        if other.inlineCount > 0 { insert(other.first) }
        if other.inlineCount > 1 { insert(other.second) }
        for index in other.more { insert(index) }
    }

    /// Equal as sets: the same indexes, in whatever order they were inserted.
    package static func == (lhs: LinkIndexes, rhs: LinkIndexes) -> Bool {
        lhs.count == rhs.count && !lhs.contains { !rhs.contains($0) }
    }

    /// The indexes in ascending order: `[2, 8]`.
    package var description: String {
        var all = Array(more)
        if inlineCount > 0 { all.append(first) }
        if inlineCount > 1 { all.append(second) }
        return "\(all.sorted())"
    }
}
