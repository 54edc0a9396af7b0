import ReachabilityModel
import ReachabilitySystem
/// Reads RFC 8910's captive-portal option (IPv6 Router Advertisement option 37) out of an
/// `RTM_NEWNDUSEROPT` message's payload, as strictly as every other kernel input.
///
/// The payload is `struct nduseroptmsg` (16 bytes: family, padding, the options' length, the
/// interface index, the ICMPv6 type and code, padding), the ND options the kernel passed on
/// (8-byte units, each `type, length, data`), then attributes (`NDUSEROPT_SRCADDR`: the router's
/// address). The kernel itself checked the RA (hop limit 255, link-local source, `accept_ra`);
/// the message's sender is checked before this runs (the kernel's port, 0).
package enum NDUserOptionParser {
    /// What a message said about the captive-portal API of one interface.
    package enum Announcement: Equatable {
        /// The network's API is at this URI.
        case api(interfaceIndex: Int, uri: String)
        /// RFC 8910 §2's `urn:ietf:params:capport:unrestricted`: the network holds no captive portal.
        case unrestricted(interfaceIndex: Int)
    }

    /// `ND_OPT_CAPTIVE_PORTAL`.
    package static let captivePortalOption: UInt8 = 37
    /// Longer URIs are refused (the option allows 2,038 bytes): an API's URI is a host and a
    /// short path, and a path carries whatever it holds to every JSON record.
    package static let uriLimit = 1024
    package static let unrestricted = "urn:ietf:params:capport:unrestricted"

    private static let headerSize = 16
    private static let routerAdvertisement: UInt8 = 134

    /// The announcement in `payload` (the bytes after the `nlmsghdr`); nil when the message holds
    /// no captive-portal option, or holds anything malformed: a bad length, a URI that is empty,
    /// too long, or holds a control, space, non-ASCII or NUL byte inside it, or is neither an
    /// `https://` URI nor the unrestricted URN, a sender that is not link-local.
    package static func announcement(in payload: UnsafeRawBufferPointer) -> Announcement? {
        guard payload.count >= headerSize, payload[0] == 10 /* AF_INET6 */ else { return nil }
        let optionsLength = Int(payload.loadUnaligned(fromByteOffset: 2, as: UInt16.self))
        let interfaceIndex = Int(payload.loadUnaligned(fromByteOffset: 4, as: Int32.self))
        guard interfaceIndex > 0, payload[8] == routerAdvertisement, payload[9] == 0,
              optionsLength % 8 == 0, headerSize + optionsLength <= payload.count else { return nil }
        guard senderIsLinkLocal(attributes: UnsafeRawBufferPointer(rebasing: payload[(headerSize + optionsLength)...])) else {
            return nil
        }
        var offset = headerSize
        var found: String?
        while offset < headerSize + optionsLength {
            guard offset + 2 <= headerSize + optionsLength else { return nil }
            let length = Int(payload[offset + 1]) * 8
            guard length > 0, offset + length <= headerSize + optionsLength else { return nil }
            if payload[offset] == captivePortalOption {
                // Two options disagreeing is malformed too: the network said nothing usable.
                guard found == nil, let uri = uri(UnsafeRawBufferPointer(rebasing: payload[(offset + 2)..<(offset + length)])) else {
                    return nil
                }
                found = uri
            }
            offset += length
        }
        guard let found else { return nil }
        return found == unrestricted ? .unrestricted(interfaceIndex: interfaceIndex) : .api(interfaceIndex: interfaceIndex, uri: found)
    }

    /// The option's URI: its bytes up to the NUL padding, printable ASCII only.
    package static func uri(_ data: UnsafeRawBufferPointer) -> String? {
        var end = data.count
        while end > 0 && data[end - 1] == 0 { end -= 1 }
        let bytes = UnsafeRawBufferPointer(rebasing: data[..<end])
        guard !bytes.isEmpty, bytes.count <= uriLimit, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text == unrestricted || (text.lowercased().hasPrefix("https://") && text.count > "https://".count) else { return nil }
        return text
    }

    /// Whether the attributes' `NDUSEROPT_SRCADDR`, when present, is an IPv6 link-local address.
    private static func senderIsLinkLocal(attributes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset + 4 <= attributes.count {
            let length = Int(attributes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
            let type = attributes.loadUnaligned(fromByteOffset: offset + 2, as: UInt16.self)
            guard length >= 4, offset + length <= attributes.count else { return false }
            if type == 1 /* NDUSEROPT_SRCADDR */ {
                guard length == 4 + 16 else { return false }
                return attributes[offset + 4] == 0xfe && attributes[offset + 5] & 0xc0 == 0x80
            }
            offset += (length + 3) & ~3
        }
        return true
    }
}
