#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A moment of the real-time clock, printed as RFC 3339 in UTC with microseconds.
struct Timestamp: Sendable, Hashable, CustomStringConvertible {
    /// Seconds since the Unix epoch.
    var seconds: Int
    /// Microseconds into the second, 0 ..< 1_000_000.
    var microseconds: Int

    /// The time now, from `CLOCK_REALTIME`.
    static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(seconds: Int(spec.tv_sec), microseconds: Int(spec.tv_nsec) / 1000)
    }

    /// `2026-11-21T23:59:59.123456Z`.
    var description: String {
        var bytes: [UInt8] = []
        write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `description`'s bytes to `out`, digit by digit: a JSON record's time costs no
    /// string and no allocation.
    func write(to out: inout some ByteSink) {
        var clock = time_t(seconds)
        var fields = tm()
        gmtime_r(&clock, &fields)
        Self.append(Int(fields.tm_year) + 1900, width: 4, then: "-", to: &out)
        Self.append(Int(fields.tm_mon) + 1, width: 2, then: "-", to: &out)
        Self.append(Int(fields.tm_mday), width: 2, then: "T", to: &out)
        Self.append(Int(fields.tm_hour), width: 2, then: ":", to: &out)
        Self.append(Int(fields.tm_min), width: 2, then: ":", to: &out)
        Self.append(Int(fields.tm_sec), width: 2, then: ".", to: &out)
        Self.append(microseconds, width: 6, then: "Z", to: &out)
    }

    /// `number` in decimal with leading zeros up to `width` digits, then `separator`.
    private static func append(_ number: Int, width: Int, then separator: Unicode.Scalar, to out: inout some ByteSink) {
        var divisor = 1
        var digits = 1
        while digits < width || number / divisor >= 10 {
            divisor *= 10
            digits += 1
        }
        var rest = number
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
        out.append(UInt8(ascii: separator))
    }
}

/// A number of seconds as a person writes it: `30` when whole, else `1.5`.
func formatSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
}
