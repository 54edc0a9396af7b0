import XCTest
import ReachabilityModel
import ReachabilityNetlink

/// The pacing of announced URIs (docs/semantics.md, "Announcements from the link"): a change is
/// shown at once when the interface's last one is 500 ms old, else held (the last wins) and shown
/// at its slot (500 ms after the last shown) or at the end of its burst (30 ms quiet, once per
/// 500 ms): a storm shows at most four URIs a second and ends on its last URI 30 ms after it.
final class CaptivePortalAnnouncementsTests: XCTestCase {
    private static let spacing = CaptivePortalAnnouncements.spacing
    private static let quiet = CaptivePortalAnnouncements.quietTime
    private static let links: [Int: LinkState] = [2: LinkState(index: 2, name: "c0", flags: [.up, .lowerUp],
                                                               operationalState: .up, hardwareType: 1)]

    private func api(_ uri: String) -> NDUserOptionParser.Reading { .announcement(.api(interfaceIndex: 2, uri: uri)) }

    private func shown(_ announcements: CaptivePortalAnnouncements) -> String? {
        var links = Self.links
        announcements.apply(to: &links)
        return links[2]?.captivePortalAPI
    }

    /// Sends `count` URIs one every `gap` ns from `start`, then lets time pass, firing the
    /// engine's one timer as it would (a timer that finds nothing due arms the next).
    /// - Returns: how many changes were shown, when the last URI was sent, and when the last change was shown.
    private func storm(_ announcements: CaptivePortalAnnouncements, count: Int, gap: UInt64,
                       from start: UInt64) -> (shown: Int, lastSent: UInt64, lastShown: UInt64) {
        var shownChanges = 0, lastShown: UInt64 = 0, timers: [UInt64] = []
        func fire(until now: UInt64) {
            while let due = timers.min(), due <= now {
                timers.removeAll { $0 == due }
                if announcements.releaseHeld(now: due) { (shownChanges, lastShown) = (shownChanges + 1, due) }
                if let next = announcements.heldChangeDue() { timers.append(next) }
            }
        }
        for n in 0..<count {
            let now = start + UInt64(n) * gap
            fire(until: now)
            if announcements.note(api("https://p.example/\(n)"), now: now).changed { (shownChanges, lastShown) = (shownChanges + 1, now) }
            if let due = announcements.heldChangeDue() { timers.append(due) }
        }
        fire(until: .max)
        return (shownChanges, start + UInt64(count - 1) * gap, lastShown)
    }

    func testAStormShowsAtMostFourChangesASecond_andEndsOnItsLastURIAfterTheQuietTime() {
        let announcements = CaptivePortalAnnouncements()
        // 2,000 URIs, one every 1.5 ms (3 s), as the storm.
        let (shownChanges, lastSent, lastShown) = storm(announcements, count: 2000, gap: 1_500_000, from: 1_000_000_000)
        XCTAssertEqual(shown(announcements), "https://p.example/1999", "the storm ends on its last URI")
        XCTAssertLessThanOrEqual(lastShown, lastSent + Self.quiet, "shown once the storm is quiet for 30 ms, or sooner at its slot")
        XCTAssertLessThanOrEqual(shownChanges, 4 + 4 * 3, "the documented bound, 4 + 4T")
        XCTAssertGreaterThanOrEqual(shownChanges, 6, "the slot still shows changes while it lasts")
        XCTAssertNil(announcements.heldChangeDue(), "nothing left held")
    }

    /// The attacker's best pacing: a pause of just over 30 ms between URIs. The early showing is
    /// spent once per 500 ms, so the rate stays bounded.
    func testPausesJustOverTheQuietTime_stillBounded() {
        let announcements = CaptivePortalAnnouncements()
        let (shownChanges, lastSent, lastShown) = storm(announcements, count: 100, gap: Self.quiet + 1_000_000, from: 1_000_000_000)
        let seconds = Double(lastSent - 1_000_000_000) / 1e9
        XCTAssertEqual(shown(announcements), "https://p.example/99")
        XCTAssertLessThanOrEqual(lastShown, lastSent + Self.spacing, "the last URI within the spacing")
        XCTAssertLessThanOrEqual(Double(shownChanges), 4 + 4 * seconds, "the documented bound over \(seconds) s")
        XCTAssertGreaterThan(Double(shownChanges), 2 * seconds, "both the slot and the end of bursts show changes")
    }

    func testAQuietNetworksChangeIsShownAtOnce_andARepeatDropsWhatWasHeld() {
        let announcements = CaptivePortalAnnouncements()
        XCTAssertTrue(announcements.note(api("https://a.example/"), now: 10).changed)
        XCTAssertFalse(announcements.note(api("https://a.example/"), now: 20).changed, "the same URI again")
        XCTAssertFalse(announcements.note(api("https://b.example/"), now: 30).changed, "held: too soon")
        XCTAssertEqual(announcements.heldChangeDue(), 30 + Self.quiet)
        XCTAssertNil(announcements.heldChangeDue(), "one timer armed, not one per message")
        XCTAssertFalse(announcements.note(api("https://a.example/"), now: 40).changed, "the latest word is the shown one")
        XCTAssertFalse(announcements.releaseHeld(now: 30 + Self.quiet), "nothing held any more")
        XCTAssertEqual(shown(announcements), "https://a.example/")
        // A second change soon after the first is shown when it goes quiet: a real network is not kept waiting.
        XCTAssertFalse(announcements.note(api("https://b.example/"), now: 50).changed)
        XCTAssertTrue(announcements.releaseHeld(now: 50 + Self.quiet))
        XCTAssertEqual(shown(announcements), "https://b.example/")
        // The unrestricted URN is a change like any other; with the early showing spent, it waits for its slot.
        XCTAssertFalse(announcements.note(.announcement(.unrestricted(interfaceIndex: 2)), now: 100).changed)
        XCTAssertFalse(announcements.releaseHeld(now: 100 + Self.quiet), "the early showing is spent")
        XCTAssertEqual(announcements.heldChangeDue(), 50 + Self.quiet + Self.spacing)
        XCTAssertTrue(announcements.releaseHeld(now: 50 + Self.quiet + Self.spacing))
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
