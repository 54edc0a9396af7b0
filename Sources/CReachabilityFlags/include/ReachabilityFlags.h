#ifndef REACHABILITY_FLAGS_H
#define REACHABILITY_FLAGS_H

/// The reachability of a target, with the bit values of Apple's
/// `SCNetworkReachabilityFlags`. Declared in C, as Apple's is, so that it can
/// appear in a `@convention(c)` callback type; Swift imports it as an
/// `OptionSet` named `ReachabilityFlags`.
typedef enum __attribute__((flag_enum, enum_extensibility(open))) ReachabilityFlags {
    /// The target is reached through a transient connection (point-to-point or cellular).
    ReachabilityFlagsTransientConnection = 1u << 0,
    /// A route to the target exists over an interface that is up.
    ReachabilityFlagsReachable = 1u << 1,
    /// The route exists but its interface has no carrier or is dormant: a connection must be made first.
    ReachabilityFlagsConnectionRequired = 1u << 2,
    /// Source compatibility only: Linux has no state that sets it.
    ReachabilityFlagsConnectionOnTraffic = 1u << 3,
    /// Source compatibility only: Linux has no state that sets it.
    ReachabilityFlagsInterventionRequired = 1u << 4,
    /// Source compatibility only: Linux has no state that sets it.
    ReachabilityFlagsConnectionOnDemand = 1u << 5,
    /// The target is one of this host's own addresses.
    ReachabilityFlagsIsLocalAddress = 1u << 16,
    /// The target is on a directly attached network (no gateway).
    ReachabilityFlagsIsDirect = 1u << 17,
    /// The route leaves by a cellular interface.
    ReachabilityFlagsIsWWAN = 1u << 18,
    /// Apple's alias of `connectionOnTraffic`.
    ReachabilityFlagsConnectionAutomatic = 1u << 3,
} ReachabilityFlags;

#endif
