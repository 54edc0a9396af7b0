import ReachabilitySystem
import NetworkReachabilityCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes records to standard output, one `write(2)` each, and ends the process after `limit` of them.
///
/// Called from the monitors' callbacks, on the library's threads: the mutex keeps each record's
/// write and count one step, so records never interleave and `--count` is never overshot.
final class RecordPrinter: Sendable {
    private let formatter: any RecordFormatter
    private let limit: Int?
    /// The records written so far, and the buffer each is formatted into (kept: no allocation a record).
    private let printed = LockedState((count: 0, line: [UInt8]()))

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
        printed.withLock { printed in
            if let limit, printed.count >= limit { return }  // another thread is ending the process
            formatter.write(record, into: &printed.line)
            do {
                try StandardStreams.writeRecord(printed.line)
            } catch {
                Failure.terminate(with: error)
            }
            printed.count += 1
            if let limit, printed.count >= limit {
                exit(0)
            }
        }
    }
}
