#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Unbuffered output: each record is one `write(2)`, so a reader of a pipe sees it at once
/// and records written from one queue never interleave.
enum StandardStreams {
    /// Writes `text` to `descriptor` with one `write(2)`; only an interrupted or partial write
    /// (a record larger than the pipe's buffer) is continued with another.
    ///
    /// - Returns: 0 on success, else the `errno` of the failed write.
    @discardableResult
    static func send(_ text: String, to descriptor: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { send(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// Writes all of `bytes`, retrying after signals. - Returns: 0, or the errno of the failure.
    static func send(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }

    /// Writes one record to standard output.
    ///
    /// - Throws: `CommandFailure.outputFailed` when standard output is closed or broken.
    static func writeRecord(_ text: String) throws(CommandFailure) {
        let code = send(text, to: STDOUT_FILENO)
        if code != 0 { throw .outputFailed(errno: code) }
    }

    /// The same for a record's bytes, in one `write` (unless the kernel takes fewer).
    static func writeRecord(_ bytes: [UInt8]) throws(CommandFailure) {
        let code = bytes.withUnsafeBytes { send($0, to: STDOUT_FILENO) }
        if code != 0 { throw .outputFailed(errno: code) }
    }

    /// Whether human output is coloured: only when standard output is a terminal that is not
    /// `TERM=dumb`, and never when `NO_COLOR` is set to a non-empty value (no-color.org).
    static var wantsColour: Bool {
        isatty(STDOUT_FILENO) == 1 && !isSetAndNotEmpty("NO_COLOR") && environment("TERM") != "dumb"
    }

    /// The value of the environment variable `name`, or nil when unset.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    private static func isSetAndNotEmpty(_ name: String) -> Bool {
        environment(name).map { !$0.isEmpty } ?? false
    }
}
