import ReachabilitySystem
@_exported import CReachabilityFlags

extension ReachabilityFlags: @retroactive CustomStringConvertible {
    /// Every flag with its name, in bit order; `connectionAutomatic` is an alias and not listed.
    public static let allNamed: [(flag: ReachabilityFlags, name: String)] = [
        (.transientConnection, "transientConnection"),
        (.reachable, "reachable"),
        (.connectionRequired, "connectionRequired"),
        (.connectionOnTraffic, "connectionOnTraffic"),
        (.interventionRequired, "interventionRequired"),
        (.connectionOnDemand, "connectionOnDemand"),
        (.isLocalAddress, "isLocalAddress"),
        (.isDirect, "isDirect"),
        (.isWWAN, "isWWAN"),
    ]

    /// The names of the set flags, in bit order, as `reachability --json` prints them.
    public var names: [String] {
        Self.allNamed.filter { contains($0.flag) }.map(\.name)
    }

    /// The compact form of Apple's Reachability sample: `WR ctiCDld`, a dash for each flag not set.
    ///
    /// `W` isWWAN, `R` reachable, then `c` connectionRequired, `t` transientConnection,
    /// `i` interventionRequired, `C` connectionOnTraffic, `D` connectionOnDemand,
    /// `l` isLocalAddress, `d` isDirect. For example `-R -------` is plainly reachable.
    public var description: String {
        func mark(_ flag: ReachabilityFlags, _ letter: Character) -> Character {
            contains(flag) ? letter : "-"
        }
        return String([
            mark(.isWWAN, "W"), mark(.reachable, "R"), " ",
            mark(.connectionRequired, "c"), mark(.transientConnection, "t"),
            mark(.interventionRequired, "i"), mark(.connectionOnTraffic, "C"),
            mark(.connectionOnDemand, "D"), mark(.isLocalAddress, "l"), mark(.isDirect, "d"),
        ])
    }
}

// An option set of a UInt32: hashable and safe to send. Imported C enums get neither on their own.
extension ReachabilityFlags: @retroactive Hashable, @retroactive @unchecked Sendable {}
