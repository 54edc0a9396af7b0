import ReachabilitySystem
import NetworkReachabilityCore
/// The changes `demo` makes to its namespace, one per tick, in a cycle: each undoes the one before
/// it, so the namespace is back where it started every six ticks.
final class DemoScript: Sendable {
    /// One change: the `ip` arguments (run with `-n NAME`) and what it does, for the narration.
    struct Step: Sendable {
        var arguments: [String]
        var effect: String
    }

    static let steps: [Step] = [
        Step(arguments: ["link", "set", "v0p", "down"], effect: "v0 loses its carrier"),
        Step(arguments: ["link", "set", "v0p", "up"], effect: "v0 has its carrier back"),
        Step(arguments: ["route", "del", "default"], effect: "no default route: only 10.77.0.0/24 is reachable"),
        Step(arguments: ["route", "add", "default", "via", DemoNamespace.gateway, "dev", "v0"], effect: "the default route is back"),
        Step(arguments: ["route", "add", "unreachable", "\(DemoNamespace.remote)/32"],
             effect: "an unreachable route for \(DemoNamespace.remote)"),
        Step(arguments: ["route", "del", "unreachable", "\(DemoNamespace.remote)/32"], effect: "the unreachable route is gone"),
    ]

    private let namespace: DemoNamespace
    /// The index of the next step; touched on the demo's queue only.
    private let next = LockedState(0)

    init(namespace: DemoNamespace) {
        self.namespace = namespace
    }

    /// The next step, which advances the cycle.
    func takeNextStep() -> Step {
        let index = next.withLock { index in
            defer { index = (index + 1) % Self.steps.count }
            return index
        }
        return Self.steps[index]
    }

    /// Makes `step`'s change in the namespace.
    ///
    /// - Throws: `CommandFailure.ipFailed` with `ip`'s message.
    func perform(_ step: Step) throws(CommandFailure) {
        try IPCommand.check(["-n", namespace.name] + step.arguments)
    }
}
