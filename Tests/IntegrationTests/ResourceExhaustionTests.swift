import Foundation
@testable import NetworkReachabilityCore
@testable import ReachabilityEngine
@testable import ReachabilityLoop
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import Synchronization
import XCTest

/// Issue 14: short of descriptors or threads, the library and the command answer or say why in
/// one line (status 2); nothing dies by a signal (libnl's `BUG()` aborts, libdispatch's SIGILL in
/// `_dispatch_epoll_init`), and nothing is left open once the shortage is over.
final class ResourceExhaustionTests: XCTestCase {
    // MARK: - Every failure point of an engine's setup, injected

    /// Each point of `SetupPoint` fails once (`SetupFaults`), with the real resources taken before
    /// it and libnl's own asserting free functions run on the way out.
    func testEachSetupFailurePoint_givesATypedErrorNamingIt_andLeavesNoDescriptor() throws {
        try withNamespace { ns in
            try ns.addLAN(.ipv4)
            let before = ProcessResources.descriptors
            defer { SetupFaults.disarm() }
            let expected = PathMonitor(namespace: ns.reference).currentPath
            try waitUntil("the first engine is gone") { EngineRegistry.liveEngineCount == 0 }
            // The one point that does not fail the engine comes last: its engine outlives the loop.
            for point in SetupPoint.allCases.filter({ $0 != .configurationWatch }) + [.configurationWatch] {
                SetupFaults.arm(point, errno: EMFILE)
                defer { SetupFaults.disarm() }
                let monitor = PathMonitor(namespace: ns.reference)
                if point == .configurationWatch {
                    // Without inotify the engine reads the files on every pass: slower, not wrong.
                    XCTAssertNil(monitor.setupError, "\(point)")
                    XCTAssertEqual(monitor.currentPath, expected, "\(point)")
                } else {
                    guard case .system(let function, let code)? = monitor.setupError else {
                        XCTFail("\(point): expected a system error, got \(String(describing: monitor.setupError))")
                        continue
                    }
                    XCTAssertEqual(code, EMFILE, "\(point)")
                    let resource = point == .wakePipe ? "loop wake-up" : point == .waiterThread ? "loop thread" : point.rawValue
                    XCTAssert(function.contains(resource), "\(point): '\(function)' does not name '\(resource)'")
                    XCTAssert(monitor.setupError!.description.contains("EMFILE"), monitor.setupError!.description)
                }
            }
            // The engines die on their loops' threads, as those end: wait for the books to close.
            try waitUntil("every descriptor of the failed setups is closed") {
                ProcessResources.descriptorsOpened(since: before).isEmpty
            }
            XCTAssertEqual(try ns.generalMonitor().currentPath, expected)
        }
    }

    // MARK: - The descriptor limit, in this process, lifted mid-run

    /// The process's own limit is lowered to what is open now plus `spare`, for every `spare` up to
    /// what an engine needs; each attempt answers or fails typed; then the limit is lifted and no
    /// descriptor of the failed attempts is left behind.
    func testDescriptorLimitLowered_thenLifted_everyAttemptAnswersOrFailsTyped_noDescriptorLeft() throws {
        try withNamespace { ns in
            try ns.addLAN(.ipv4)
            var limit = rlimit()
            XCTAssertEqual(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit), 0)
            let original = limit
            defer { _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), [original]) }
            let expected = PathMonitor(namespace: ns.reference).currentPath
            let before = ProcessResources.descriptors
            var outcomes: [String] = []
            for spare in 0...12 {
                try waitUntil("the last attempt's engine is gone") { EngineRegistry.liveEngineCount == 0 }
                // Holes below the highest open descriptor are filled, so exactly `spare` numbers are free.
                let highest = ProcessResources.descriptors.keys.max() ?? 2
                var fillers: [Int32] = []
                while true {
                    let filler = dup(2)
                    guard filler >= 0 else { break }
                    if filler > highest {
                        _ = close(filler)
                        break
                    }
                    fillers.append(filler)
                }
                limit.rlim_cur = rlim_t(highest + 1 + Int32(spare))
                XCTAssertEqual(setrlimit(Int32(RLIMIT_NOFILE.rawValue), [limit]), 0)
                let monitor = PathMonitor(namespace: ns.reference)
                limit.rlim_cur = original.rlim_cur
                XCTAssertEqual(setrlimit(Int32(RLIMIT_NOFILE.rawValue), [limit]), 0)
                fillers.forEach { _ = close($0) }
                if let error = monitor.setupError {
                    let code: Int32? = switch error {
                    case .system(_, let code), .namespaceNotEnterable(_, _, let code): code
                    default: nil
                    }
                    guard let code, [EMFILE, ENFILE].contains(code) else {
                        XCTFail("spare \(spare): not a typed descriptor error: \(error)")
                        continue
                    }
                    outcomes.append("\(spare): \(error)")
                } else {
                    XCTAssertEqual(monitor.currentPath, expected, "spare \(spare)")
                    outcomes.append("\(spare): answered")
                }
            }
            XCTAssert(outcomes.contains { $0.hasSuffix("answered") }, "no attempt answered: \(outcomes)")
            XCTAssert(outcomes.contains { $0.contains("EMFILE") }, "no attempt met the limit: \(outcomes)")
            try waitUntil("every descriptor of the attempts is closed") {
                ProcessResources.descriptorsOpened(since: before).isEmpty
            }
        }
    }

    // MARK: - The sweep, over the command and a library client

    /// `prlimit --nofile=N` for N from 3 to 64 over `check` (an address, a name, the general
    /// path), `check --probe` (a probe server on loopback answering 204, and a refused port),
    /// `watch --count 1` and the `sc-monitor` example (a library client). N = 3 leaves the dynamic
    /// loader no descriptor for the shared libraries: it says so in one line and exits 127 before
    /// any code of ours runs.
    func testDescriptorLimitSweep_answerOrOneLineError_neverASignal() throws {
        if let sanitizer = ReliabilityEnvironment.sanitizer {
            // TSan's runtime aborts when descriptors run out (its CHECK on pthread_getattr_np);
            // ASan's reads /proc as threads start, taking a descriptor the command had counted on.
            throw XCTSkip("the \(sanitizer) sanitizer's own runtime needs descriptors that the limit takes: "
                          + "the sweep judges the plain build, where scripts/test runs it")
        }
        let reachability = try builtExecutable("reachability")
        let example = try builtExecutable("sc-monitor")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let refusing = try LoopbackHTTPServer.boundLoopbackSocket()
        defer { _ = close(refusing.socket) }
        let served = [reachability, "check", "127.0.0.1", "--probe", "http://127.0.0.1:\(server.port)/generate_204"]
        let refused = [reachability, "check", "127.0.0.1", "--probe", "http://127.0.0.1:\(refusing.port)/"]
        // Without a limit the two probes answer as they should, so the sweep probes for real.
        XCTAssertEqual(try Self.run(served).standardOutput.split(separator: " ").last, "full\n")
        XCTAssertTrue(try Self.run(refused).standardOutput.hasSuffix(" limited (refused)\n"))
        let commands: [[String]] = [
            [reachability, "check", "127.0.0.1"],
            [reachability, "check", "localhost"],
            [reachability, "check"],
            served,
            refused,
            [reachability, "watch", "127.0.0.1", "--count", "1"],
            [example, "--updates", "1", "--timeout", "20"],
        ]
        let runs = (3...64).flatMap { limit in commands.map { (limit, $0) } }
        let problems = Mutex<[String]>([])
        let started = Date()
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for (limit, command) in runs.enumerated().filter({ $0.offset % 4 == lane }).map(\.element) {
                let line = "prlimit --nofile=\(limit) \(command.map { ($0 as NSString).lastPathComponent }.joined(separator: " "))"
                if let problem = Self.judge(try? Self.run(["/usr/bin/prlimit", "--nofile=\(limit)"] + command)) {
                    problems.withLock { $0.append("\(line): \(problem)") }
                }
            }
        }
        print("descriptor sweep: \(runs.count) runs in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        XCTAssertEqual(problems.withLock { $0 }, [])
    }

    /// A pids limit (a child of the pids cgroup, v2 or v1) for 1 to 8 tasks over `check` (an
    /// address, a host name, which needs a resolver thread, and the general path) and `watch`.
    ///
    /// With exactly enough tasks for the engine's waiter thread and none for a dispatch worker
    /// (pids.max 2), a `queue.async` would make libdispatch wait for a thread forever
    /// (`_dispatch_temporary_resource_shortage`): the engine defers its work through its waiter
    /// instead, a resolver thread that cannot start fails the resolution, and `watch` checks for
    /// its dispatch threads before it schedules. Each run is bounded well inside the test
    /// (`timeout -k`: a hung `watch` would not even handle SIGTERM).
    func testPidsLimit_checkAndWatchAnswerOrSayWhy_neverHang() throws {
        guard geteuid() == 0 else { throw XCTSkip("making a pids cgroup needs root") }
        let parent = ["/sys/fs/cgroup", "/sys/fs/cgroup/unified", "/sys/fs/cgroup/pids"].first {
            FileManager.default.fileExists(atPath: "\($0)/cgroup.procs")
                && (((try? String(contentsOfFile: "\($0)/cgroup.subtree_control", encoding: .utf8)) ?? "").contains("pids")
                    || $0.hasSuffix("/pids"))
        }
        guard let parent else { throw XCTSkip("no writable pids cgroup (v2 with the pids controller, or v1 pids)") }
        let group = "\(parent)/nrx-it-\(getpid())-pids"
        guard mkdir(group, 0o755) == 0 else { throw XCTSkip("cannot make a cgroup under \(parent): errno \(errno)") }
        defer { _ = rmdir(group) }
        let reachability = try builtExecutable("reachability")
        let commands = ["check 127.0.0.1", "check localhost", "check", "watch 127.0.0.1 --count 1"]
        for limit in 1...8 {
            try "\(limit)".write(toFile: "\(group)/pids.max", atomically: false, encoding: .utf8)
            for command in commands {
                // The shell moves itself into the group, then becomes the command.
                let script = "echo $$ > \(group)/cgroup.procs && exec \(reachability) \(command)"
                let problem = Self.judge(try Self.run(["/usr/bin/timeout", "-k", "2", "15", "/bin/sh", "-c", script]))
                XCTAssertNil(problem, "pids.max=\(limit) \(command): \(problem ?? "")")
            }
        }
    }

    // MARK: - Running and judging

    private struct Outcome {
        var signalled: Bool
        var status: Int32
        var standardError: String
        var standardOutput: String
    }

    private static func run(_ command: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let errors = Pipe()
        process.standardError = errors
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Output is one line at most; the error pipe is read to its end first, then the output's.
        let text = errors.fileHandleForReading.readDataToEndOfFile()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(signalled: process.terminationReason == .uncaughtSignal, status: process.terminationStatus,
                       standardError: String(decoding: text, as: UTF8.self),
                       standardOutput: String(decoding: printed, as: UTF8.self))
    }

    /// nil when the run answered (0, or 1 for "not reachable") or said why in one line with
    /// status 2 (127 from the dynamic loader); else what was wrong.
    private static func judge(_ outcome: Outcome?) -> String? {
        guard let outcome else { return "could not start" }
        if outcome.signalled { return "killed by signal \(outcome.status): \(outcome.standardError.prefix(300))" }
        let lines = outcome.standardError.split(separator: "\n", omittingEmptySubsequences: true)
        switch outcome.status {
        case 0, 1: return nil
        case 2 where lines.count == 1: return nil
        case 127 where outcome.standardError.contains("error while loading shared libraries"): return nil
        case 124, 128 + SIGKILL: return "timed out (hung)"
        default: return "status \(outcome.status), \(lines.count) lines: \(outcome.standardError.prefix(300))"
        }
    }
}
