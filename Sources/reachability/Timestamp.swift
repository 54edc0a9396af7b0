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
        Self.append(Int(fields.tm_year) + 1900, digits: 4, then: "-", to: &out)
        Self.append(Int(fields.tm_mon) + 1, digits: 2, then: "-", to: &out)
        Self.append(Int(fields.tm_mday), digits: 2, then: "T", to: &out)
        Self.append(Int(fields.tm_hour), digits: 2, then: ":", to: &out)
        Self.append(Int(fields.tm_min), digits: 2, then: ":", to: &out)
        Self.append(Int(fields.tm_sec), digits: 2, then: ".", to: &out)
        Self.append(microseconds, digits: 6, then: "Z", to: &out)
    }

    /// The last `digits` decimal digits of `number` (not negative), leading zeros kept, then
    /// `separator`. A fixed count, so every digit is one store and no width is searched for: a
    /// year past 9999 is not a moment a record is printed at.
    private static func append(_ number: Int, digits: Int, then separator: Unicode.Scalar, to out: inout some ByteSink) {
        var text: (UInt64, UInt64) = (0, 0)  // 6 digits at most
        withUnsafeMutableBytes(of: &text) { buffer in
            var rest = number
            for index in stride(from: digits - 1, through: 0, by: -1) {
                buffer[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            for index in 0..<digits { out.append(buffer[index]) }
        }
        out.append(UInt8(ascii: separator))
    }
}

/// A number of seconds as a person writes it: `30` when whole, else `1.5`.
func formatSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
}
