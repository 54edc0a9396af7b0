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

    /// What one message held, as `read(_:)` found it.
    package enum Reading: Equatable {
        /// A well-formed captive-portal option.
        case announcement(Announcement)
        /// A captive-portal option that was refused, and why.
        case refused(CaptivePortalRefusal)
        /// No captive-portal option (another ND option, or not a Router Advertisement's message).
        case nothing
    }

    /// The announcement in `payload` (the bytes after the `nlmsghdr`); nil when the message holds
    /// no captive-portal option, or holds one that `read(_:)` refuses.
    package static func announcement(in payload: UnsafeRawBufferPointer) -> Announcement? {
        if case .announcement(let announcement) = read(payload) { announcement } else { nil }
    }

    /// The captive-portal option in `payload` (the bytes after the `nlmsghdr`): taken, refused
    /// (a bad length, a URI that is empty, too long, or holds a control, space, non-ASCII or NUL
    /// byte inside it, or is neither an `https://` URI nor the unrestricted URN; two options; a
    /// sender that is not link-local), or not there. A message that is not a Router
    /// Advertisement's, or whose header is malformed, holds nothing.
    package static func read(_ payload: UnsafeRawBufferPointer) -> Reading {
        guard payload.count >= headerSize, payload[0] == 10 /* AF_INET6 */ else { return .nothing }
        let optionsLength = Int(payload.loadUnaligned(fromByteOffset: 2, as: UInt16.self))
        let interfaceIndex = Int(payload.loadUnaligned(fromByteOffset: 4, as: Int32.self))
        guard payload[8] == routerAdvertisement, payload[9] == 0, optionsLength % 8 == 0,
              headerSize + optionsLength <= payload.count else { return .nothing }
        let end = headerSize + optionsLength
        func refused(_ reason: String, _ value: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)) -> Reading {
            .refused(CaptivePortalRefusal(interfaceIndex: max(interfaceIndex, 0), reason: reason, value: value))
        }
        var offset = headerSize
        var found: UnsafeRawBufferPointer?
        while offset < end {
            let isCaptivePortal = payload[offset] == captivePortalOption
            let length = offset + 2 <= end ? Int(payload[offset + 1]) * 8 : 0
            guard length > 0, offset + length <= end else {
                // The kernel checks an RA's option lengths; a message past that is not to be read on.
                return isCaptivePortal || found != nil ? refused("a malformed option length") : .nothing
            }
            if isCaptivePortal {
                let value = trimmingPadding(UnsafeRawBufferPointer(rebasing: payload[(offset + 2)..<(offset + length)]))
                // Two options disagreeing is malformed too: the network said nothing usable.
                guard found == nil else { return refused("two captive-portal options", value) }
                found = value
            }
            offset += length
        }
        guard let found else { return .nothing }
        guard interfaceIndex > 0 else { return refused("no interface", found) }
        guard senderIsLinkLocal(attributes: UnsafeRawBufferPointer(rebasing: payload[end...])) else {
            return refused("a sender that is not link-local", found)
        }
        if let reason = refusal(ofURI: found) { return refused(reason, found) }
        let uri = String(decoding: found, as: UTF8.self)
        return .announcement(uri == unrestricted ? .unrestricted(interfaceIndex: interfaceIndex) : .api(interfaceIndex: interfaceIndex, uri: uri))
    }

    /// The option's URI: its bytes up to the NUL padding, printable ASCII only.
    package static func uri(_ data: UnsafeRawBufferPointer) -> String? {
        let bytes = trimmingPadding(data)
        guard refusal(ofURI: bytes) == nil else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `data` without the NUL bytes that pad the option to a multiple of 8 bytes.
    private static func trimmingPadding(_ data: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var end = data.count
        while end > 0 && data[end - 1] == 0 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: data[..<end])
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
