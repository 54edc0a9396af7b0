import Foundation
import NetworkReachability
import XCTest

/// The probe lab's link made ready for IPv6 Router Advertisements: link-local addresses on both
/// ends (without DAD, so they are usable at once), the client accepting RAs on `c0`, jumbo frames
/// (an RA with an enormous option is not fragmented), and `Tests/Servers/send_ra.py` to send one
/// from the upstream, as a router would.
struct RALab {
    let lab: ProbeLab

    init(lab: ProbeLab) throws {
        self.lab = lab
        try lab.client.run("sysctl", "-qw", "net.ipv6.conf.c0.accept_ra=1")
        for (namespace, device, address) in [(lab.client, "c0", "fe80::1/64"), (lab.upstream, "u0", "fe80::2/64")] {
            try namespace.ip("link", "set", device, "mtu", "9000")
            try namespace.ip("addr", "add", address, "dev", device, "nodad")
        }
    }

    /// Sends one RA whose option 37 holds `uri` (`\xNN` escapes allowed); `rawLength` forces the
    /// option's length field (in 8-byte units) whatever its size.
    func sendRA(_ uri: String, rawLength: Int? = nil) throws {
        try lab.upstream.run("python3", Self.script, "u0", uri, extra: rawLength.map { ["--raw-length", String($0)] } ?? [])
    }

    /// Sends `count` RAs, one every `interval` seconds, `{n}` in `template` replaced by 0 to
    /// count-1, as an attacker on the link would. - Returns: how many went out, the seconds from
    /// the first to the last, as the sender measured them, and when the last went (`DispatchTime`).
    func sendStorm(_ template: String, count: Int, interval: Double) throws -> (sent: Int, seconds: Double, last: DispatchTime) {
        let report = lab.stateDirectory + "/storm"
        try lab.upstream.run("python3", Self.script, "u0", template,
                             extra: ["--count", String(count), "--interval", String(interval), "--report", report])
        let words = try String(contentsOfFile: report, encoding: .utf8).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard words.count == 3 else { throw TimedOut(what: "send_ra.py reported the storm") }
        return (Int(words[0]), words[1], DispatchTime(uptimeNanoseconds: UInt64(words[2] * 1e9)))
    }

    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Servers/send_ra.py").path
}

/// Runs `body` with a fresh `RALab` (and its `ProbeLab`); everything is removed after.
func withRALab(_ function: String = #function, file: StaticString = #filePath, line: UInt = #line,
               _ body: (RALab) throws -> Void) throws {
    try withProbeLab(function, file: file, line: line) { lab in
        try body(try RALab(lab: lab))
    }
}

extension Namespace {
    /// Runs `executable ARGUMENTS` inside the namespace (`ip netns exec`). - Throws: `CommandFailure`.
    func run(_ executable: String, _ arguments: String..., extra: [String] = []) throws {
        try IntegrationTests.ip(["netns", "exec", name, executable] + arguments + extra)
    }
}
