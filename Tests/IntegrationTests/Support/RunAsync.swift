import XCTest

/// Runs `body` in a task and waits for it, for XCTest's synchronous tests (inside a fixture's
/// closure, which cannot await).
func runAsync<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = Recorder<T>()
    Task { result.append(await body()) }
    XCTAssertTrue(result.wait(forCount: 1))
    return result.all[0]
}
