import XCTest

/// Asks `condition` again until it holds or `seconds` pass: the service applies a new path
/// asynchronously, and HTTP has no event to wait for.
func eventually(
    within seconds: Double = 30, file: StaticString = #filePath, line: UInt = #line,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    XCTFail("the condition did not hold within \(seconds) s", file: file, line: line)
}
