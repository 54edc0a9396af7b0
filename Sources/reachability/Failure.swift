import ArgumentParser
import NetworkReachabilityCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failure of the command itself, beside the library's `ReachabilityError`s.
enum CommandFailure: Error, CustomStringConvertible {
    /// Standard output could not be written; `errno` says why.
    case outputFailed(errno: Int32)
    /// `ip` (iproute2), which `demo` runs to change its namespace, is not installed.
    case ipNotInstalled
    /// `demo` may not make a network namespace; `detail` is what `ip netns add` said.
    case demoNeedsPrivileges(detail: String)
    /// `ip ARGUMENTS` failed: it exited with `status` (or was killed) and said `message`.
    case ipFailed(arguments: [String], status: String, message: String)
    /// A system call of the command failed.
    case system(function: String, errno: Int32)
    /// Options that are each valid but not together; the message names them and the fix.
    case optionConflict(String)

    var description: String {
        switch self {
        case .outputFailed(let code):
            "cannot write to standard output: \(String(cString: strerror(code)))"
        case .ipNotInstalled:
            "the demo changes its namespace with 'ip' from iproute2, which is not installed: run scripts/bootstrap, or apt-get install iproute2"
        case .demoNeedsPrivileges(let detail):
            """
            the demo cannot make its network namespace (ip netns add: \(detail)): run it as root \
            (sudo reachability demo), or watch this host without root: reachability watch
            """
        case .ipFailed(let arguments, let status, let message):
            "'ip \(arguments.joined(separator: " "))' failed (\(status)): \(message.isEmpty ? "no message" : message)"
        case .system(let function, let code):
            "\(function) failed: \(String(cString: strerror(code)))"
        case .optionConflict(let message):
            message
        }
    }
}

/// How the command ends on an error: one line on standard error and a status that is neither 0 nor 1.
enum Failure {
    /// The status for bad input the library rejected, or a failure of the command.
    static let status: Int32 = 2

    /// Reports `error` and ends the process.
    ///
    /// - A thrown `ExitCode` is the command's answer (`check`'s 1): exit with it silently.
    /// - Help and version requests print to standard output and exit 0, as ArgumentParser does.
    /// - Usage errors keep ArgumentParser's status (64), but lose its usage text: one line only.
    /// - Everything else (`ReachabilityError`, `CommandFailure`, ...) exits 2.
    static func terminate(with error: any Error) -> Never {
        if let code = error as? ExitCode {
            exit(code.rawValue)
        }
        let code: Int32
        let message: String
        switch error {
        case let error as ReachabilityError:
            (code, message) = (status, error.description)
        case let error as CommandFailure:
            (code, message) = (status, error.description)
        default:
            let exitCode = Reachability.exitCode(for: error)
            if exitCode == .success {
                Reachability.exit(withError: error)  // --help, --version
            }
            if exitCode == .validationFailure {
                (code, message) = (exitCode.rawValue, Reachability.message(for: error) + " (see 'reachability help')")
            } else {
                // ArgumentParser would exit 1 here, which means "not reachable".
                (code, message) = (status, Reachability.message(for: error))
            }
        }
        printError(message)
        exit(code)
    }

    /// Writes `reachability: MESSAGE` as one line on standard error.
    static func printError(_ message: String) {
        StandardStreams.send("reachability: \(oneLine(message))\n", to: STDERR_FILENO)
    }

    /// The text with its lines joined and control characters made visible, so it fits on one line.
    static func oneLine(_ text: String) -> String {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        var out = ""
        for scalar in lines.joined(separator: " ").unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
