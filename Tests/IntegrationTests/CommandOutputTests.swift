import Dispatch
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// The human output's rules: colour only on a terminal and never with `NO_COLOR`; each record
/// reaches a pipe as soon as it is made.
final class CommandOutputTests: CommandTestCase {
    func testColour_onATerminal_isOn() throws {
        let output = try runOnTerminal(["check", "--netns", namespace, "8.8.8.8"])
        XCTAssertTrue(output.contains("\u{1B}["), "coloured on a terminal: \(output.debugDescription)")
        XCTAssertTrue(output.contains("reachable"), output)
    }

    func testColour_onATerminalWithNO_COLOR_isOff() throws {
        for command in [["check", "--netns", namespace, "8.8.8.8"], ["interfaces", "--netns", namespace]] {
            let output = try runOnTerminal(command, environment: ["NO_COLOR": "1"])
            XCTAssertFalse(output.contains("\u{1B}"), "\(command): no colour with NO_COLOR: \(output.debugDescription)")
            XCTAssertFalse(output.isEmpty, "\(command) printed")
        }
    }

    func testColour_intoAPipe_isOff() throws {
        let result = try reachability(["watch", "--count", "1", "--netns", namespace, "8.8.8.8"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stdout.contains("\u{1B}"), result.stdout)
    }

    func testHumanRecords_reachAPipeOneLineAtATime() throws {
        // Given: a watch with no end, writing into a pipe.
        let watch = try startReachability(["watch", "--netns", namespace, "8.8.8.8"])
        defer { watch.terminateIfRunning() }

        // Then: its first record arrives while it runs (nothing waits for a buffer to fill or the process to end).
        let first = try XCTUnwrap(watch.stdout.nextLine(before: .now() + Self.deadline), "the initial record")
        XCTAssertNil(watch.waitForExit(before: .now()), "still running")
        XCTAssertEqual(first.split(separator: " ").dropFirst().first, "8.8.8.8")

        // When: the route goes, the next record arrives on its own line.
        try ipInNamespace("route", "del", "default")
        let second = try XCTUnwrap(watch.stdout.nextLine(before: .now() + Self.deadline), "a record after the change")
        XCTAssertEqual(second.split(separator: " ").dropFirst(2).first, "unreachable", second)
        XCTAssertNil(watch.waitForExit(before: .now()), "still running")
    }

    // MARK: - Helpers

    /// Runs the command with a pseudo-terminal as its standard output and returns what it wrote there.
    private func runOnTerminal(_ arguments: [String], environment: [String: String] = [:],
                               file: StaticString = #filePath, line: UInt = #line) throws -> String {
        // posix_openpt, unlockpt and ptsname are not in the Glibc module: /dev/ptmx and its ioctls
        // (TIOCSPTLCK, TIOCGPTN; the asm-generic values of x86_64 and arm64) do the same.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw XCTSkip("no pseudo-terminal here: \(String(cString: strerror(errno)))") }
        defer { close(master) }
        var unlock: CInt = 0
        var number: CUnsignedInt = 0
        guard ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0,
              ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number) == 0 else {
            throw XCTSkip("cannot set up the pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw XCTSkip("cannot open the pseudo-terminal: \(String(cString: strerror(errno)))") }
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: true)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.binaryPath())
        process.arguments = arguments
        process.environment = Self.commandEnvironment(environment.merging(["TERM": "xterm"]) { a, _ in a })
        process.standardOutput = terminal
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        try terminal.close()  // the child holds its own copy; reading the master ends when that closes
        guard exited.wait(timeout: .now() + Self.deadline) == .success else {
            process.terminate()
            throw Failure("\(arguments) did not finish within \(Self.deadline) s")
        }
        XCTAssertEqual(process.terminationStatus, 0, "\(arguments)", file: file, line: line)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if count <= 0 { break }  // EIO once the child's side is closed and drained
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
