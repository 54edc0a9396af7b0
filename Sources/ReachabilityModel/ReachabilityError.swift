import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Every failure the library reports. Each case says what was wrong and what to do about it.
public enum ReachabilityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An address string that is not an IPv4 or IPv6 address (with an optional `%scope`).
    case invalidAddress(String, reason: String)
    /// A `sockaddr` whose family or length is not that of `sockaddr_in` or `sockaddr_in6`.
    case invalidSocketAddress(reason: String)
    /// A host name that breaks one of the rules of RFC 1123 host names.
    case invalidHostName(String, reason: String)
    /// A connectivity probe that cannot be used: the URL as given, and what is wrong with it.
    case invalidProbe(String, reason: String)
    /// The namespace file does not exist.
    case namespaceNotFound(path: String)
    /// The namespace file exists but could not be opened or entered; `errno` says why.
    case namespaceNotEnterable(path: String, function: String, errno: Int32)
    /// libnl reported a failure; `code` is libnl's positive `NLE_*` code and `message` its text.
    case netlink(function: String, code: Int32, message: String)
    /// A system call failed.
    case system(function: String, errno: Int32)

    /// One line, with control characters in user-supplied text made visible.
    public var description: String {
        Self.printable(unescapedDescription)
    }

    private var unescapedDescription: String {
        switch self {
        case .invalidAddress(let text, let reason):
            return "invalid address '\(text)': \(reason) (give an IPv4 address such as 192.0.2.1, or an IPv6 address such as 2001:db8::1 or fe80::1%eth0)"
        case .invalidSocketAddress(let reason):
            return "invalid socket address: \(reason) (pass a sockaddr_in or sockaddr_in6 with its family set)"
        case .invalidHostName(let name, let reason):
            return "invalid host name '\(name)': \(reason)"
        case .invalidProbe(let url, let reason):
            // The reason carries its own hint: the URL's form only when the URL is what is wrong.
            return "invalid probe '\(url)': \(reason)"
        case .namespaceNotFound(let path):
            return "network namespace '\(path)' does not exist (list them with 'ip netns list', make one with 'ip netns add NAME')"
        case .namespaceNotEnterable(let path, let function, let errno):
            let hint = (errno == EPERM || errno == EACCES)
                ? "; entering it needs CAP_SYS_ADMIN in the user namespace that owns it: run as root" : ""
            return "cannot enter network namespace '\(path)': \(function): \(Self.errnoName(errno)) (\(Self.errnoText(errno))\(hint))"
        case .netlink(let function, let code, let message):
            return "netlink failure in \(function): \(message) (libnl error \(code))"
        case .system(let function, let errno):
            return "\(function) failed: \(Self.errnoName(errno)) (\(Self.errnoText(errno)))"
        }
    }

    package static func errnoText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    package static func errnoName(_ code: Int32) -> String {
        switch code {
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        case EACCES: "EACCES"
        case EINVAL: "EINVAL"
        case ENOMEM: "ENOMEM"
        case EBADF: "EBADF"
        case ENOTDIR: "ENOTDIR"
        case EMFILE: "EMFILE"
        case ENFILE: "ENFILE"
        case ENETUNREACH: "ENETUNREACH"
        case EHOSTUNREACH: "EHOSTUNREACH"
        case ENOBUFS: "ENOBUFS"
        // A probe's connection.
        case ECONNREFUSED: "ECONNREFUSED"
        case ECONNRESET: "ECONNRESET"
        case ECONNABORTED: "ECONNABORTED"
        case EPIPE: "EPIPE"
        case ETIMEDOUT: "ETIMEDOUT"
        case EADDRNOTAVAIL: "EADDRNOTAVAIL"
        default: "errno \(code)"
        }
    }

    /// Control characters and NUL made visible, so an error line stays one line.
    package static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7f {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
