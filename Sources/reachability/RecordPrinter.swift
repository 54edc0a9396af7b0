import ReachabilitySystem
import NetworkReachabilityCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes records to standard output, one `write(2)` each, and ends the process after `limit` of them.
///
/// Called from the watch's serial queue only; the mutex makes the count safe to share with the
/// `@Sendable` path handlers, and is never contended.
final class RecordPrinter: Sendable {
    private let formatter: any RecordFormatter
    private let limit: Int?
    private let printed = LockedState(0)

    /// - Parameters:
    ///   - formatter: turns each record into its line.
    ///   - limit: `--count`: exit 0 once this many records were written; nil for no limit.
    init(formatter: any RecordFormatter, limit: Int?) {
        self.formatter = formatter
        self.limit = limit
    }

    /// Writes `record`; exits 0 when it was the last one `limit` allows, and 2 when standard
    /// output cannot be written (a closed pipe, with SIGPIPE ignored).
    func print(_ record: Record) {
        do {
            try StandardStreams.writeRecord(formatter.format(record))
        } catch {
            Failure.terminate(with: error)
        }
        let count = printed.withLock { count in
            count += 1
            return count
        }
        if let limit, count >= limit {
            exit(0)
        }
    }
}
