/// The distinct targets among a pass's monitors, in order of first appearance, and which of them
/// each monitor watches: a pass evaluates each distinct target once, however many monitors share it.
package struct DistinctTargets {
    /// Each distinct target once, in the order its first monitor appears.
    package private(set) var targets: [MonitorTarget] = []
    /// For each monitor, in order, the index of its target in `targets`.
    package private(set) var slots: [Int] = []

    package init(_ all: [MonitorTarget]) {
        var index: [MonitorTarget: Int] = [:]
        index.reserveCapacity(all.count)
        slots.reserveCapacity(all.count)
        for target in all {
            if let known = index[target] {
                slots.append(known)
            } else {
                index[target] = targets.count
                slots.append(targets.count)
                targets.append(target)
            }
        }
    }
}
