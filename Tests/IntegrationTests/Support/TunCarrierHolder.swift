import Foundation
import XCTest

/// A process inside a namespace that holds a tun device open, so the device has carrier.
///
/// `ip netns exec NS python3 -c SCRIPT DEVICE`: the script opens `/dev/net/tun`, attaches to the
/// existing device with `TUNSETIFF` (`IFF_TUN | IFF_NO_PI`, the flags `ip tuntap add mode tun`
/// made it with), prints `ready`, and blocks reading stdin. Closing stdin ends it, and with it the carrier.
final class TunCarrierHolder {
    private static let script = """
        import fcntl, os, struct, sys
        fd = os.open("/dev/net/tun", os.O_RDWR)
        fcntl.ioctl(fd, 0x400454ca, struct.pack("16sH22x", sys.argv[1].encode(), 0x0001 | 0x1000))
        sys.stdout.write("ready\\n")
        sys.stdout.flush()
        sys.stdin.read()
        """

    /// A python3 to run the helper with, or nil when the machine has none.
    static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    private let process = Process()
    private let input = Pipe()
    private var stopped = false

    /// Starts the holder and returns once it attached to `device` (it printed `ready`).
    ///
    /// - Throws: `XCTSkip` without python3; `CommandFailure` when the helper exits before attaching.
    init(device: String, namespace: Namespace) throws {
        guard let python = Self.python else {
            throw XCTSkip("no python3 to hold a tun device open (looked in /usr/bin, /usr/local/bin, /bin)")
        }
        let output = Pipe()
        let errors = Pipe()
        process.executableURL = URL(fileURLWithPath: ipExecutable)
        process.arguments = ["netns", "exec", namespace.name, python, "-c", Self.script, device]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Blocks until the helper attached and printed, or exited (end of file).
        var line = Data()
        let reader = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard String(decoding: line, as: UTF8.self).hasPrefix("ready") else {
            stop()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw CommandFailure(commandLine: "ip netns exec \(namespace.name) python3 -c <tun holder> \(device)",
                                 status: process.terminationStatus, standardError: message)
        }
    }

    /// Closes the helper's stdin and waits for it to exit; the device loses carrier.
    func stop() {
        guard !stopped else { return }
        stopped = true
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.waitUntilExit() }
    }

    deinit {
        stop()
    }
}
