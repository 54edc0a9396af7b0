/// The faces a state is news to, in slot order, kept inline: one a delivery is the common case,
/// and an array would be an allocation for every monitor of every change.
struct DueCallouts {
    private var first, second, third, fourth: MonitorFaces.Callout?
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// - Precondition: fewer than four are due already (a monitor has four slots).
    mutating func append(_ callout: MonitorFaces.Callout) {
        switch count {
        case 0: first = callout
        case 1: second = callout
        case 2: third = callout
        case 3: fourth = callout
        default: preconditionFailure("a monitor has \(MonitorFaces.Slot.allCases.count) faces")
        }
        count += 1
    }

    func forEach(_ body: (MonitorFaces.Callout) -> Void) {
        if let first { body(first) }
        if let second { body(second) }
        if let third { body(third) }
        if let fourth { body(fourth) }
    }
}
