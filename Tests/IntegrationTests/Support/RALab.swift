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
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Servers/send_ra.py").path
        try lab.upstream.run("python3", script, "u0", uri, extra: rawLength.map { ["--raw-length", String($0)] } ?? [])
    }
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
