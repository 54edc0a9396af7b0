import Foundation
import NetworkReachability
import Synchronization
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// A helper process, usually `ip netns exec NAMESPACE COMMAND`: its stdout lines are recorded as
/// they come, its stderr kept, its stdin open until `stop()`.
///
/// `@unchecked Sendable`: the recorders and `stopped` lock themselves; the rest is set in `init`
/// and only read after.
final class NamespaceProcess: @unchecked Sendable {
    let lines = Recorder<String>()
    let description: String
    private let stopSignal: Int32
    private let process = Process()
    private let input = Pipe()
    private let errors = Recorder<Data>()
    private let stopped = Mutex(false)
    /// Signalled once for each of stdout and stderr when it reaches its end.
    private let streamsEnded = DispatchSemaphore(value: 0)

    /// - Parameter stopSignal: what `stop()` sends.
    init(executable: String, arguments: [String], description: String, stopSignal: Int32 = SIGKILL) throws {
        self.description = description
        self.stopSignal = stopSignal
        let output = Pipe()
        let errorPipe = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errorPipe
        try process.run()
        // `ip netns exec` execs the command: this pid is the server's.
        let lines = self.lines
        let ended = streamsEnded
        let outHandle = output.fileHandleForReading
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = outHandle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending = Data(pending[pending.index(after: newline)...])
                }
            }
            if !pending.isEmpty { lines.append(String(decoding: pending, as: UTF8.self) + "<no newline>") }
            ended.signal()
        }
        let errHandle = errorPipe.fileHandleForReading
        let errors = self.errors
        Thread.detachNewThread {
            while true {
                let chunk = errHandle.availableData
                if chunk.isEmpty { break }
                errors.append(chunk)
            }
            ended.signal()
        }
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    var exitStatus: Int32? { process.isRunning ? nil : process.terminationStatus }
    var standardError: String { String(decoding: errors.all.reduce(Data(), +), as: UTF8.self) }

    /// Whether a UDP socket of the namespace of process `pid` is bound to ADDRESS:PORT (IPv4),
    /// read from `/proc/PID/net/udp`.
    static func listensOnUDP(pid: Int32, address: String, port: Int) -> Bool {
        let octets = address.split(separator: ".").compactMap { UInt8($0) }
        guard octets.count == 4 else { return false }
        // /proc prints the address as the u32 in host (little-endian) order, and the port in hex.
        let local = String(format: "%02X%02X%02X%02X:%04X", octets[3], octets[2], octets[1], octets[0], port)
        guard let table = try? String(contentsOfFile: "/proc/\(pid)/net/udp", encoding: .utf8) else { return false }
        return table.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first.map(String.init) == local }
    }

    /// Waits until the process exited and its output was read to the end, for at most `seconds`.
    /// - Returns: the exit status, or nil when it did not end in time.
    func waitForExit(within seconds: TimeInterval) -> Int32? {
        let deadline = DispatchTime.now() + seconds
        guard streamsEnded.wait(timeout: deadline) == .success, streamsEnded.wait(timeout: deadline) == .success else {
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends the process its stop signal (SIGKILL unless told otherwise), waits for it and closes
    /// its stdin. Idempotent.
    func stop() {
        let first = stopped.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        if process.isRunning { kill(process.processIdentifier, stopSignal) }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
    }

    deinit {
        stop()
    }
}
