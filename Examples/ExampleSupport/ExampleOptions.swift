import Foundation

/// The command line shared by the examples: `--updates N` and `--timeout SECONDS`.
public struct ExampleOptions: Sendable {
    public var updates: Int?
    public var timeout: Double?
    public var rest: [String: String] = [:]

    /// Parses `CommandLine.arguments`; `extra` names the other `--name value` options allowed.
    public static func parse(name: String, extra: [String] = []) -> ExampleOptions {
        var options = ExampleOptions()
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            guard argument.hasPrefix("--"), let value = arguments.popFirst() else {
                usage(name, extra)
            }
            switch argument {
            case "--updates":
                guard let count = Int(value), count > 0 else { usage(name, extra) }
                options.updates = count
            case "--timeout":
                guard let seconds = Double(value), seconds > 0 else { usage(name, extra) }
                options.timeout = seconds
            case let other where extra.contains(String(other.dropFirst(2))):
                options.rest[String(other.dropFirst(2))] = value
            default:
                usage(name, extra)
            }
        }
        return options
    }

    /// Waits for `done` or the timeout. - Returns: the exit status: 1 when `--updates` was not reached.
    public func wait(on done: DispatchSemaphore) -> Int32 {
        guard let timeout else {
            done.wait()
            return 0
        }
        let reached = done.wait(timeout: .now() + timeout) == .success
        return (reached || updates == nil) ? 0 : 1
    }

    private static func usage(_ name: String, _ extra: [String]) -> Never {
        let more = extra.map { " [--\($0) VALUE]" }.joined()
        complain("usage: \(name)\(more) [--updates N] [--timeout SECONDS]")
        exit(64)
    }
}

extension String {
    /// The string with leading zeros up to `width` characters.
    public func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

/// Writes a line to standard output at once (unbuffered, so a reader of a pipe sees it now).
public func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Writes a line to standard error.
public func complain(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
