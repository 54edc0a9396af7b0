import XCTest

/// The given-steps most host-name tests share: `withDNSNamespace` with the bed's LAN
/// (`DNSTestBed.addLAN`), then `given` (more links, say), then, when `records` are given, the
/// test's server answering them and named in the namespace's resolv.conf. A test then states
/// only what it changes and what it expects.
func withDNSLAN(
    requiring requirements: [DNSRequirement] = [.dnsmasq], serving records: [DNSRecord]? = nil,
    file: StaticString = #filePath, line: UInt = #line,
    given: (DNSTestBed) throws -> Void = { _ in }, _ body: (DNSTestBed) throws -> Void
) throws {
    try withDNSNamespace(requiring: requirements, file: file, line: line) { bed in
        try bed.addLAN()
        try given(bed)
        if let records {
            try bed.useTestServer()
            try bed.startDNSServer(records)
        }
        try body(bed)
    }
}
