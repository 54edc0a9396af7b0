import Foundation
import Synchronization

/// A command that exited with a non-zero status: the command line, the status and what it wrote to stderr.
struct CommandFailure: Error, CustomStringConvertible {
    var commandLine: String
    var status: Int32
    var standardError: String

    var description: String {
        "`\(commandLine)` exited with status \(status): \(standardError.trimmingCharacters(in: .whitespacesAndNewlines))"
    }
}

/// What a command printed.
struct CommandOutput: Sendable {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

/// Runs an executable to completion and returns its status and output, whatever the status.
///
/// Both pipes are drained while the command runs, so a chatty command cannot block on a full pipe.
func runCommand(_ executable: String, _ arguments: [String]) throws -> CommandOutput {
    try runCommandTimed(executable, arguments).output
}

/// Runs a command like `runCommand`, and also returns when its standard output reached its end of
/// file (the moment the command exited, for `ip`).
func runCommandTimed(_ executable: String, _ arguments: [String]) throws -> (output: CommandOutput, ended: DispatchTime) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let outPipe = Pipe()
    let errPipe = Pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errorText = Mutex<Data>(Data())
    let readingErrors = DispatchGroup()
    let errHandle = errPipe.fileHandleForReading
    DispatchQueue.global().async(group: readingErrors) {
        let data = errHandle.readDataToEndOfFile()
        errorText.withLock { $0 = data }
    }
    let out = outPipe.fileHandleForReading.readDataToEndOfFile()
    let ended = DispatchTime.now()
    readingErrors.wait()
    process.waitUntilExit()
    let output = CommandOutput(status: process.terminationStatus, standardOutput: String(decoding: out, as: UTF8.self),
                               standardError: String(decoding: errorText.withLock { $0 }, as: UTF8.self))
    return (output, ended)
}

/// The `ip` binary of iproute2.
let ipExecutable: String = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
    .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/ip"

/// Runs `ip ARGUMENTS` and returns its standard output.
///
/// - Throws: `CommandFailure` with the command line and `ip`'s stderr when it exits non-zero.
@discardableResult
func ip(_ arguments: [String]) throws -> String {
    let output = try runCommand(ipExecutable, arguments)
    guard output.status == 0 else {
        throw CommandFailure(commandLine: (["ip"] + arguments).joined(separator: " "), status: output.status,
                             standardError: output.standardError)
    }
    return output.standardOutput
}

@discardableResult
func ip(_ arguments: String...) throws -> String {
    try ip(arguments)
}
