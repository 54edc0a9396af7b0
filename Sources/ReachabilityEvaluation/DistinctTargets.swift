/// The distinct targets among a pass's monitors, in order of first appearance, and which of them
/// each monitor watches: a pass evaluates each distinct target once, however many monitors share it.
package struct DistinctTargets {
    /// Each distinct target once, in the order its first monitor appears.
    package private(set) var targets: [MonitorTarget] = []
    /// For each monitor, in order, the index of its target in `targets`.
    package private(set) var slots: [Int] = []

    package init(_ all: [MonitorTarget]) {
        var index: [MonitorTarget: Int] = [:]
        slots.reserveCapacity(all.count)
        // Monitors of one target are often made together: the previous monitor's target is
        // compared before the table is hashed into (ten thousand monitors of one destination
        // hash nothing).
        var previous = -1
        for target in all {
            if previous >= 0, targets[previous] == target {
                slots.append(previous)
                continue
            }
            if let known = index[target] {
                previous = known
            } else {
                // The table is sized for all once a second target appears.
                if targets.count == 1 { index.reserveCapacity(all.count) }
                index[target] = targets.count
                previous = targets.count
                targets.append(target)
            }
            slots.append(previous)
        }
    }
}
