import ReachabilitySystem
/// Validation of host names given to `PathMonitor(host:)`, by the rules of RFC 1123 as resolvers apply them.
package enum HostName {
    /// The longest name in bytes, without a trailing dot.
    package static let maximumLength = 253
    /// The longest label in bytes.
    package static let maximumLabelLength = 63

    /// Checks `name` and returns it without a trailing dot.
    ///
    /// - Throws: `ReachabilityError.invalidHostName` naming the rule that was broken.
    package static func validate(_ name: String) throws(ReachabilityError) -> String {
        func fail(_ reason: String) -> ReachabilityError { .invalidHostName(name, reason: reason) }
        if name.isEmpty { throw fail("the name is empty") }
        if name.utf8.contains(0) { throw fail("it contains a NUL byte") }
        if name.contains("%") { throw fail("a host name takes no '%scope' (only an IPv6 address does)") }
        let trimmed = name.hasSuffix(".") ? String(name.dropLast()) : name
        if trimmed.utf8.count > maximumLength {
            throw fail("it is \(trimmed.utf8.count) bytes long; a host name has at most \(maximumLength)")
        }
        for label in trimmed.split(separator: ".", omittingEmptySubsequences: false) {
            if label.isEmpty { throw fail("it has an empty label (two dots in a row, or a leading dot)") }
            if label.utf8.count > maximumLabelLength {
                throw fail("the label '\(label)' is \(label.utf8.count) bytes long; a label has at most \(maximumLabelLength)")
            }
            if let bad = label.unicodeScalars.first(where: { !isAllowed($0) }) {
                throw fail("the character '\(bad)' cannot appear in a host name (letters, digits, '-' and '_' only; use punycode for IDNs)")
            }
            if label.hasPrefix("-") || label.hasSuffix("-") {
                throw fail("the label '\(label)' starts or ends with '-'")
            }
        }
        return trimmed
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_": true
        default: false
        }
    }
}
