import NetworkReachabilityCore

/// What a `wait` waits for: the targets (all or any of them), the families of `-4`/`-6` and the
/// interfaces of `--interface` (always each of them).
///
/// No target, family or interface means the general path, `*`, as `NWPathMonitor()` sees it.
struct WaitGoalList: Sendable {
    /// The TARGETs, the group `--all`/`--any` applies to.
    var targets: [TargetSpecification]
    /// `0.0.0.0` for `-4`, `::` for `-6`: each must be reachable, whatever the mode.
    var families: [TargetSpecification]
    /// The `--interface` names: each must be routable (in the general path's available interfaces).
    var interfaces: [String]

    init(targets: [String], interfaces: [String], ipv4: Bool, ipv6: Bool) {
        var specifications = targets.map { TargetSpecification(target: $0) }
        if specifications.isEmpty, interfaces.isEmpty, !ipv4, !ipv6 { specifications = [.general] }
        self.targets = specifications
        families = (ipv4 ? [.address("0.0.0.0")] : []) + (ipv6 ? [.address("::")] : [])
        // A name given twice is waited for once.
        var seen: Set<String> = []
        self.interfaces = interfaces.filter { seen.insert($0).inserted }
    }

    /// Every monitored target in the order of the session's paths: the targets, then the families.
    var monitoredTargets: [TargetSpecification] { targets + families }

    /// How the timeout's line names the target at `index` of `monitoredTargets`.
    func label(at index: Int) -> String {
        guard index >= targets.count else { return targets[index].recordTarget }
        return families[index - targets.count] == .address("0.0.0.0") ? "IPv4 (-4, 0.0.0.0)" : "IPv6 (-6, ::)"
    }

    /// Whether the goals are met by `paths` (one per monitored target, nil before its first) and
    /// `available`, the names of the general path's available interfaces.
    func areMet(paths: [NetworkPath?], available: Set<String>, mode: PathWaitMode, probing: Bool) -> Bool {
        let met = paths.map { $0?.meetsGoal(probing: probing) ?? false }
        let group = met.prefix(targets.count)
        let groupMet = group.isEmpty || (mode == .all ? group.allSatisfy { $0 } : group.contains(true))
        return groupMet && met.dropFirst(targets.count).allSatisfy { $0 } && interfaces.allSatisfy(available.contains)
    }

    /// What kept each unmet goal from being met, in words, for the timeout's line:
    /// `10.0.0.1 not reachable (no route)`, `interface eth1 not routable (no carrier)`.
    ///
    /// Under `--all` the unmet targets; under `--any` every target when none was met.
    func unmet(paths: [NetworkPath?], available: Set<String>, interfaceStatuses: [InterfaceStatus]?,
               mode: PathWaitMode, probing: Bool) -> [String] {
        let met = paths.map { $0?.meetsGoal(probing: probing) ?? false }
        let anyMet = met.prefix(targets.count).contains(true)
        var lines: [String] = []
        for (index, path) in paths.enumerated() where !met[index] {
            if index < targets.count, mode == .any, anyMet { continue }
            lines.append("\(label(at: index)) \(PathWords.unmet(path, probing: probing))")
        }
        for name in interfaces where !available.contains(name) {
            lines.append("interface \(name) not routable (\(Self.whyNotRoutable(name, in: interfaceStatuses)))")
        }
        return lines
    }

    /// Why `name` is not routable, from the kernel's interfaces (nil when they could not be read).
    static func whyNotRoutable(_ name: String, in statuses: [InterfaceStatus]?) -> String {
        guard let statuses else { return "its state could not be read" }
        guard let status = statuses.first(where: { $0.interface.name == name }) else { return "no such interface" }
        if status.interface.type == .loopback { return "a loopback interface carries nothing off the host" }
        if !status.flags.contains("UP") { return "link down" }
        if !status.hasCarrier { return "no carrier" }
        let beyondLink = status.addresses.filter { !$0.hasPrefix("fe80:") && !$0.hasPrefix("169.254.") }
        if status.addresses.isEmpty { return "no address" }
        if beyondLink.isEmpty { return "only link-local addresses" }
        return "not usable"
    }
}
