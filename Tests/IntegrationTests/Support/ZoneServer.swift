import Foundation
import XCTest

/// A name server of the tests' own (python3), for the first-delivery tests: it answers for names by
/// their last labels, so that every repetition can ask a name no one resolved before.
///
/// `*.remote.nrx.test` gets `LAN.remote`, `*.onlink.nrx.test` `LAN.onLink`, `*.slow.nrx.test`
/// `LAN.remote` after `slowDelay`, and every other name NXDOMAIN (with authority). AAAA questions
/// of a known name get an empty answer.
extension DNSTestBed {
    static let slowDelay = 0.4

    /// Starts the server on `serverAddress:53`; returns once it is bound. It ends with its stdin.
    func startZoneServer() throws {
        let script = """
            import os, select, socket, struct, sys, threading
            zone = {"remote.nrx.test": sys.argv[2], "onlink.nrx.test": sys.argv[3], "slow.nrx.test": sys.argv[2]}
            delay = float(sys.argv[4])
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind((sys.argv[1], 53))
            print("ready", flush=True)
            def reply(query, peer):
                labels, i = [], 12
                while query[i]:
                    labels.append(query[i + 1:i + 1 + query[i]].decode().lower())
                    i += 1 + query[i]
                qtype = struct.unpack(">H", query[i + 1:i + 3])[0]
                suffix = ".".join(labels[1:])
                address = zone.get(suffix)
                answer = b""
                if address and qtype == 1:
                    answer = b"\\xc0\\x0c" + struct.pack(">HHIH", 1, 1, 5, 4) + socket.inet_aton(address)
                flags = 0x8400 | (0x0100 & struct.unpack(">H", query[2:4])[0]) | 0x0080 | (0 if address else 3)
                header = query[:2] + struct.pack(">HHHHH", flags, 1, 1 if answer else 0, 0, 0)
                packet = header + query[12:i + 5] + answer
                wait = delay if suffix == "slow.nrx.test" else 0
                threading.Timer(wait, lambda: s.sendto(packet, peer)).start()
            while True:
                ready, _, _ = select.select([s, sys.stdin], [], [])
                if sys.stdin in ready and not os.read(0, 4096):
                    break
                if s in ready:
                    reply(*s.recvfrom(4096))
            """
        let server = try startProcess(ipExecutable, ["netns", "exec", name, pythonExecutable!, "-c", script,
                                                     Self.serverAddress, LAN.remote, LAN.onLink, "\(Self.slowDelay)"],
                                      description: "zone name server")
        guard server.lines.wait(until: "the zone name server is bound", { $0.contains("ready") }) else {
            throw CommandFailure(commandLine: "ip netns exec \(name) python3 <zone server>", status: server.exitStatus ?? -1,
                                 standardError: server.standardError)
        }
    }
}
