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
    /// string and no allocation, and no call into the C library (`gmtime_r` takes the time zone's
    /// lock and was a tenth of a record's instructions).
    func write(to out: inout some ByteSink) {
        let secondOfDay = (seconds % 86_400 + 86_400) % 86_400
        let date = Self.civilDate(daysSinceEpoch: (seconds - secondOfDay) / 86_400)
        Self.append(date.year, digits: 4, then: "-", to: &out)
        Self.append(date.month, digits: 2, then: "-", to: &out)
        Self.append(date.day, digits: 2, then: "T", to: &out)
        Self.append(secondOfDay / 3600, digits: 2, then: ":", to: &out)
        Self.append(secondOfDay / 60 % 60, digits: 2, then: ":", to: &out)
        Self.append(secondOfDay % 60, digits: 2, then: ".", to: &out)
        Self.append(microseconds, digits: 6, then: "Z", to: &out)
    }

    /// The Gregorian date of a day counted from 1970-01-01 (negative before it). The calendar
    /// repeats every 400 years (146,097 days); counted from a March 1st, each year's leap day is
    /// its last, so a day's year and month follow from divisions alone.
    static func civilDate(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let sinceMarch0000 = days + 719_468
        let era = (sinceMarch0000 >= 0 ? sinceMarch0000 : sinceMarch0000 - 146_096) / 146_097
        let dayOfEra = sinceMarch0000 - era * 146_097  // 0 ... 146_096
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365  // 0 ... 399
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0 ... 365, from March 1st
        let monthFromMarch = (5 * dayOfYear + 2) / 153  // 0 ... 11
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfYear - (153 * monthFromMarch + 2) / 5 + 1)
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
