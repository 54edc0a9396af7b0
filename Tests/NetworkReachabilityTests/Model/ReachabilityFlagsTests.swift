import XCTest
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem

/// `ReachabilityFlags`: Apple's bit values, the names `--json` prints, the compact description,
/// and the C callback type it exists for.
final class ReachabilityFlagsTests: XCTestCase {
    func testBitValues_areThoseOfSCNetworkReachabilityFlags() {
        let rawValue: UInt32 = ReachabilityFlags.reachable.rawValue  // api.md: rawValue is a UInt32
        XCTAssertEqual(rawValue, 1 << 1)
        XCTAssertEqual(ReachabilityFlags.transientConnection.rawValue, 1 << 0)
        XCTAssertEqual(ReachabilityFlags.reachable.rawValue, 1 << 1)
        XCTAssertEqual(ReachabilityFlags.connectionRequired.rawValue, 1 << 2)
        XCTAssertEqual(ReachabilityFlags.connectionOnTraffic.rawValue, 1 << 3)
        XCTAssertEqual(ReachabilityFlags.interventionRequired.rawValue, 1 << 4)
        XCTAssertEqual(ReachabilityFlags.connectionOnDemand.rawValue, 1 << 5)
        XCTAssertEqual(ReachabilityFlags.isLocalAddress.rawValue, 1 << 16)
        XCTAssertEqual(ReachabilityFlags.isDirect.rawValue, 1 << 17)
        XCTAssertEqual(ReachabilityFlags.isWWAN.rawValue, 1 << 18)
        XCTAssertEqual(ReachabilityFlags.connectionAutomatic, ReachabilityFlags.connectionOnTraffic)
        XCTAssertEqual(MemoryLayout<ReachabilityFlags>.size, 4)
    }

    func testRawValue_ofTheJSONExample() {
        // cli.md: "flags":["reachable","isDirect"],"flagsRaw":131074
        let flags: ReachabilityFlags = [.reachable, .isDirect]
        XCTAssertEqual(flags.rawValue, 131_074)
        XCTAssertEqual(ReachabilityFlags(rawValue: 131_074), flags)
    }

    func testOptionSet_unionAndMembership() {
        var flags: ReachabilityFlags = [.reachable]
        flags.insert(.isWWAN)
        flags.formUnion([.transientConnection])
        XCTAssertTrue(flags.contains([.reachable, .isWWAN, .transientConnection]))
        XCTAssertFalse(flags.contains(.connectionRequired))
        XCTAssertEqual(flags.rawValue, (1 << 1) | (1 << 18) | (1 << 0))
        XCTAssertEqual(Set([flags, [.reachable, .isWWAN, .transientConnection]]).count, 1)  // Hashable
    }

    func testAllNamed_listsTheNineFlagsInBitOrderWithoutTheAlias() {
        XCTAssertEqual(ReachabilityFlags.allNamed.map(\.name), [
            "transientConnection", "reachable", "connectionRequired", "connectionOnTraffic",
            "interventionRequired", "connectionOnDemand", "isLocalAddress", "isDirect", "isWWAN",
        ])
        XCTAssertEqual(ReachabilityFlags.allNamed.map(\.flag), Fixture.allNineFlags)
        let rawValues = ReachabilityFlags.allNamed.map(\.flag.rawValue)
        XCTAssertEqual(rawValues, rawValues.sorted())
    }

    func testNames_ofEachSingleFlag() {
        for (flag, name) in ReachabilityFlags.allNamed {
            XCTAssertEqual(flag.names, [name])
        }
        XCTAssertEqual(ReachabilityFlags.connectionAutomatic.names, ["connectionOnTraffic"])
    }

    func testNames_ofCombinations_inBitOrder() {
        XCTAssertEqual(ReachabilityFlags([]).names, [])
        XCTAssertEqual(ReachabilityFlags([.isDirect, .reachable]).names, ["reachable", "isDirect"])
        XCTAssertEqual(
            ReachabilityFlags([.isWWAN, .transientConnection, .reachable]).names,
            ["transientConnection", "reachable", "isWWAN"])
        XCTAssertEqual(Fixture.flags(combination: 0x1FF).names, ReachabilityFlags.allNamed.map(\.name))
    }

    func testNames_ignoreBitsThatAreNoFlag() {
        let flags = ReachabilityFlags(rawValue: (1 << 1) | (1 << 10) | (1 << 31))
        XCTAssertEqual(flags.names, ["reachable"])
        XCTAssertEqual(flags.description, "-R -------")
    }

    func testDescription_compactForm() {
        XCTAssertEqual(ReachabilityFlags([]).description, "-- -------")
        XCTAssertEqual(ReachabilityFlags([.reachable]).description, "-R -------")
        XCTAssertEqual(ReachabilityFlags([.reachable, .isDirect]).description, "-R ------d")
        XCTAssertEqual(ReachabilityFlags([.reachable, .isLocalAddress, .isDirect]).description, "-R -----ld")
        XCTAssertEqual(ReachabilityFlags([.reachable, .connectionRequired]).description, "-R c------")
        XCTAssertEqual(ReachabilityFlags([.reachable, .isWWAN, .transientConnection]).description, "WR -t-----")
        XCTAssertEqual(Fixture.flags(combination: 0x1FF).description, "WR ctiCDld")
        XCTAssertEqual("\(ReachabilityFlags.reachable)", "-R -------")
    }

    func testDescription_eachFlagHasItsOwnLetterAndPlace() {
        let expected: [(ReachabilityFlags, String)] = [
            (.isWWAN, "W- -------"),
            (.reachable, "-R -------"),
            (.connectionRequired, "-- c------"),
            (.transientConnection, "-- -t-----"),
            (.interventionRequired, "-- --i----"),
            (.connectionOnTraffic, "-- ---C---"),
            (.connectionOnDemand, "-- ----D--"),
            (.isLocalAddress, "-- -----l-"),
            (.isDirect, "-- ------d"),
        ]
        XCTAssertEqual(expected.count, 9)
        for (flag, text) in expected {
            XCTAssertEqual(flag.description, text, "\(flag.names)")
        }
    }

    func testDescription_overAll512Combinations_setsExactlyTheLettersOfTheSetFlags() {
        for combination in 0..<(1 << 9) {
            let flags = Fixture.flags(combination: combination)
            let text = flags.description
            XCTAssertEqual(text.count, 10)
            let dashes = text.filter { $0 == "-" }.count
            XCTAssertEqual(dashes, 9 - flags.names.count, "\(text) for \(flags.names)")
        }
    }

    /// The layout of the C callback's third argument in the test below.
    private struct Seen {
        var calls = 0
        var flags: UInt32 = 0
    }

    func testCallback_aCaptureFreeClosureLiteral_convertsToTheCType() {
        // Given: what a port of SCNetworkReachabilitySetCallback code writes.
        let callback: PathMonitor.Callback = { _, flags, info in
            guard let seen = info?.assumingMemoryBound(to: Seen.self) else { return }
            seen.pointee.calls += 1
            seen.pointee.flags = flags.rawValue
        }
        let optional: PathMonitor.Callback? = { _, _, _ in }
        XCTAssertNotNil(optional)
        // When: called as the library calls it: the monitor, the flags, the context's info.
        var seen = Seen()
        withUnsafeMutablePointer(to: &seen) { pointer in
            callback(OpaquePointer(bitPattern: 0x10)!, [.reachable, .isDirect], UnsafeMutableRawPointer(pointer))
            callback(OpaquePointer(bitPattern: 0x10)!, [.reachable, .isDirect], nil)
        }
        // Then
        XCTAssertEqual(seen.calls, 1)
        XCTAssertEqual(seen.flags, 131_074)
    }
}
