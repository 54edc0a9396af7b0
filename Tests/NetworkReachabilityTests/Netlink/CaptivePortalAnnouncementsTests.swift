import XCTest
import ReachabilityModel
import ReachabilityNetlink

/// The pacing of announced URIs (docs/semantics.md, "Connectivity"): a change is shown at once
/// when the interface's last one is 250 ms old, else held (the latest wins) and shown when its
/// time comes; so a storm shows at most four changes a second and ends on its last URI.
final class CaptivePortalAnnouncementsTests: XCTestCase {
    private static let spacing = CaptivePortalAnnouncements.minimumSpacing
    private static let links: [Int: LinkState] = [2: LinkState(index: 2, name: "c0", flags: [.up, .lowerUp], operationalState: .up, hardwareType: 1)]

    private func api(_ uri: String) -> NDUserOptionParser.Reading { .announcement(.api(interfaceIndex: 2, uri: uri)) }

    private func shown(_ announcements: CaptivePortalAnnouncements) -> String? {
        var links = Self.links
        announcements.apply(to: &links)
        return links[2]?.captivePortalAPI
    }

    func testAStormShowsAtMostOneChangePerSpacing_andEndsOnItsLastURI() {
        let announcements = CaptivePortalAnnouncements()
        var now: UInt64 = 1_000_000_000
        var shownChanges = 0
        // 2,000 URIs, one every 1.5 ms (3 s), as the storm; the engine's timer releases what is held.
        var timer: UInt64?
        for n in 0..<2000 {
            if let due = timer, due <= now {
                timer = nil
                if announcements.releaseHeld(now: now) { shownChanges += 1 }
            }
            if announcements.note(api("https://p.example/\(n)"), now: now).changed { shownChanges += 1 }
            if let due = announcements.heldChangeDue() { timer = due }
            now += 1_500_000
        }
        let stormSeconds = 3.0
        XCTAssertNotEqual(shown(announcements), "https://p.example/1999", "still held at the storm's end")
        guard let due = timer else { return XCTFail("no timer armed for the held URI") }
        XCTAssertLessThanOrEqual(due, now + Self.spacing, "due within the spacing")
        XCTAssertTrue(announcements.releaseHeld(now: due))
        shownChanges += 1
        XCTAssertEqual(shown(announcements), "https://p.example/1999", "the storm ends on its last URI")
        XCTAssertLessThanOrEqual(Double(shownChanges), 2 + stormSeconds / 0.25, "the documented bound")
        XCTAssertGreaterThanOrEqual(shownChanges, 12, "changes still come through while it lasts")
        XCTAssertNil(announcements.heldChangeDue(), "nothing left held")
    }

    func testAQuietNetworksChangeIsShownAtOnce_andARepeatDropsWhatWasHeld() {
        let announcements = CaptivePortalAnnouncements()
        XCTAssertTrue(announcements.note(api("https://a.example/"), now: 10).changed)
        XCTAssertFalse(announcements.note(api("https://a.example/"), now: 20).changed, "the same URI again")
        XCTAssertFalse(announcements.note(api("https://b.example/"), now: 30).changed, "held: too soon")
        XCTAssertEqual(announcements.heldChangeDue(), 10 + Self.spacing)
        XCTAssertNil(announcements.heldChangeDue(), "one timer armed, not one per message")
        XCTAssertFalse(announcements.note(api("https://a.example/"), now: 40).changed, "the latest word is the shown one")
        XCTAssertFalse(announcements.releaseHeld(now: 10 + Self.spacing), "nothing held any more")
        XCTAssertEqual(shown(announcements), "https://a.example/")
        // Later than the spacing: at once. The unrestricted URN is a change like any other.
        XCTAssertTrue(announcements.note(api("https://b.example/"), now: 20 + Self.spacing).changed)
        XCTAssertFalse(announcements.note(.announcement(.unrestricted(interfaceIndex: 2)), now: 30 + Self.spacing).changed)
        XCTAssertTrue(announcements.releaseHeld(now: 20 + 2 * Self.spacing))
        XCTAssertNil(shown(announcements))
    }

    func testALinkThatGoesDown_forgetsItsURIAndWhatWasHeld() {
        let announcements = CaptivePortalAnnouncements()
        XCTAssertTrue(announcements.note(api("https://a.example/"), now: 10).changed)
        XCTAssertFalse(announcements.note(api("https://b.example/"), now: 20).changed)
        var down: [Int: LinkState] = [2: LinkState(index: 2, name: "c0", flags: [.up], operationalState: .down, hardwareType: 1)]
        announcements.apply(to: &down)
        XCTAssertFalse(announcements.releaseHeld(now: 10 + Self.spacing), "the old network's held URI went with it")
        XCTAssertNil(shown(announcements))
        XCTAssertTrue(announcements.note(api("https://c.example/"), now: 30).changed, "a new network's first word: at once")
    }

    func testARefusalIsToldNotShown() {
        let announcements = CaptivePortalAnnouncements()
        let refusal = CaptivePortalRefusal(interfaceIndex: 2, reason: "not an https:// URI", value: "http://x/")
        let noted = announcements.note(.refused(refusal), now: 10)
        XCTAssertFalse(noted.changed)
        XCTAssertEqual(noted.refusal, refusal)
        XCTAssertNil(shown(announcements))
    }
}
