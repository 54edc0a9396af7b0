import Foundation

/// Counts this process's netlink requests from outside, with `perf stat` on the syscall
/// tracepoints: every route lookup of the library is one `sendmsg` (libnl's `nl_send`), so the
/// count of `sendmsg` calls over a window is the number of kernel lookups the engine made.
/// (The library's own lookup counter is internal; the public API does not expose it.)
/// nil when perf or the tracepoints are missing.
public final class SyscallCounter: @unchecked Sendable {
    private let process: Process
    private let output: String
    public static let events = ["syscalls:sys_enter_sendmsg", "syscalls:sys_enter_recvmsg", "syscalls:sys_enter_sendto"]

    public init?() {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/perf"),
              FileManager.default.fileExists(atPath: "/sys/kernel/tracing/events/syscalls/sys_enter_sendmsg")
        else { return nil }
        output = "/tmp/nrx-bench-perf-\(getpid())-\(UInt32.random(in: 0 ... .max)).csv"
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/perf")
        process.arguments = ["stat", "-x", ",", "-o", output, "-e", Self.events.joined(separator: ","), "-p", "\(getpid())"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        // perf needs a moment to attach its counters.
        usleep(300_000)
    }

    /// Stops perf and returns the counts by event name.
    public func stop() -> [String: Int] {
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        defer { unlink(output) }
        guard let text = try? String(contentsOfFile: output, encoding: .utf8) else { return [:] }
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 3, let value = Int(fields[0]) else { continue }
            counts[String(fields[2])] = value
        }
        return counts
    }
}
