import NetworkReachability
import NetworkReachabilityTesting
import XCTest

// The example of the DocC article TestingWithAFake.md (once the README's "Testing your code:
// FakePathMonitor"), word for word, so that the documentation compiles and passes.

/// The code under test: tells `onChange` whether the network is up, each time that changes.
struct UploadGate: Sendable {
    let monitor: any PathMonitoring
    let onChange: @Sendable (Bool) async -> Void

    func run() async {
        var wasOnline: Bool?
        for await path in monitor.paths() {
            let isOnline = path.status == .satisfied
            if isOnline != wasOnline { await onChange(isOnline) }
            wasOnline = isOnline
        }
    }
}

final class UploadGateTests: XCTestCase {
    func testRun_followsOfflineThenOnline() async {
        // Given: the gate over a fake that is online
        let monitor = FakePathMonitor(path: .online())
        let (changes, continuation) = AsyncStream.makeStream(of: Bool.self)
        let gate = UploadGate(monitor: monitor) { continuation.yield($0) }
        let run = Task { await gate.run() }
        var seen = changes.makeAsyncIterator()
        let first = await seen.next()
        XCTAssertEqual(first, true)

        // When: the network goes away, then comes back
        monitor.send(.offline())
        let second = await seen.next()
        monitor.send(.online())
        let third = await seen.next()

        // Then: the gate closed, then opened
        XCTAssertEqual(second, false)
        XCTAssertEqual(third, true)
        monitor.cancel()
        await run.value
    }
}
