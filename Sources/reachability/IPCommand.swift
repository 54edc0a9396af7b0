#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs `ip` (iproute2), the one outside program the command uses: `demo` changes its own
/// throwaway namespace with it. Nothing else of the command runs programs; what it reports comes
/// from the library.
///
/// The child is started with `posix_spawn(3)` in a process group of its own (Ctrl-C on the
/// terminal reaches only the command, which then cleans up), with no signal blocked and SIGINT,
/// SIGTERM, SIGHUP and SIGPIPE at their default action (the command holds and ignores them), its
/// input and output on `/dev/null` and its standard error captured. `LC_ALL=C` keeps its messages
/// in English, so the command can recognise a missing privilege.
enum IPCommand {
    /// Where `ip` is: the first of the usual places that holds an executable.
    static let executable: String? = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        .first { access($0, X_OK) == 0 }

    /// How a run of `ip` ended.
    struct Outcome {
        /// Whether it exited with status 0.
        var succeeded: Bool
        /// `exit status 2`, or `killed by signal 9`.
        var status: String
        /// What it wrote to standard error, on one line.
        var message: String
    }

    /// Runs `ip ARGUMENTS` to its end.
    ///
    /// - Throws: `CommandFailure.ipNotInstalled`, or `.system` when the process cannot be started.
    static func run(_ arguments: [String]) throws(CommandFailure) -> Outcome {
        guard let executable else { throw .ipNotInstalled }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .system(function: "pipe", errno: errno) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        // Neither end may stay open in the child beyond its standard error (dup2 clears the flag there).
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, STDERR_FILENO)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaultSignals, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let environment: [String] = ["LC_ALL=C", "PATH=/usr/sbin:/usr/bin:/sbin:/bin"]
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(writeEnd)
        guard spawned == 0 else { throw .system(function: "posix_spawn \(executable)", errno: spawned) }

        let message = readToEnd(readEnd)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw .system(function: "waitpid", errno: errno) }
        }
        let signal = status & 0x7F
        let exitStatus = (status >> 8) & 0xFF
        return Outcome(
            succeeded: signal == 0 && exitStatus == 0,
            status: signal == 0 ? "exit status \(exitStatus)" : "killed by signal \(signal)",
            message: Failure.oneLine(message)
        )
    }

    /// Runs `ip ARGUMENTS` and requires it to succeed.
    ///
    /// - Throws: `CommandFailure.ipFailed` with `ip`'s message, or what `run` throws.
    static func check(_ arguments: [String]) throws(CommandFailure) {
        let outcome = try run(arguments)
        if !outcome.succeeded {
            throw .ipFailed(arguments: arguments, status: outcome.status, message: outcome.message)
        }
    }

    /// Everything readable from `descriptor` until end of file, as text.
    private static func readToEnd(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[0..<count]
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
