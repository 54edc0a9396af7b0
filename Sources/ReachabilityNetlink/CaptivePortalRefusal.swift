import ReachabilityModel

/// A captive-portal announcement (RFC 8910's option 37, in an IPv6 Router Advertisement) that was
/// refused, and why: the engine logs each at debug level and counts it beside the forged
/// messages (`network_reachability_captive_portal_announcements_refused_total`), so an operator
/// debugging a captive network sees what its router sent and why it was not taken.
package struct CaptivePortalRefusal: Sendable, Equatable {
    /// The interface the RA came in on (the kernel's index; 0 when the message named none).
    package var interfaceIndex: Int
    /// What was wrong, in a few words: `not an https:// URI`, `a control byte`, ...
    package var reason: String
    /// The option's value (its NUL padding dropped), escaped by `EscapedBytes`: never the raw
    /// bytes, which may hold a terminal's escape sequences, CRLF or anything else.
    package var value: String

    package init(interfaceIndex: Int, reason: String, value: UnsafeRawBufferPointer) {
        self.interfaceIndex = interfaceIndex
        self.reason = reason
        self.value = EscapedBytes.text(value)
    }

    package init(interfaceIndex: Int, reason: String, value: String) {
        self.interfaceIndex = interfaceIndex
        self.reason = reason
        self.value = value
    }
}

extension NDUserOptionParser {
    /// Why a URI is not taken (`uri(_:)`'s rules), in `CaptivePortalRefusal.reason`'s words.
    package static func refusal(ofURI bytes: UnsafeRawBufferPointer) -> String? {
        guard !bytes.isEmpty else { return "empty" }
        guard bytes.count <= uriLimit else { return "longer than \(uriLimit) bytes" }
        if bytes.contains(0) { return "a NUL byte inside" }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7f }) { return "a control byte" }
        if bytes.contains(0x20) { return "a space" }
        if bytes.contains(where: { $0 > 0x7f }) { return "a byte that is not ASCII" }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text != unrestricted else { return nil }
        guard text.lowercased().hasPrefix("https://") else { return "not an https:// URI" }
        guard text.count > "https://".count else { return "no host" }
        return nil
    }
}
