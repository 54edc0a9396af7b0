// The module users import: all of NetworkReachabilityCore (PathMonitor, NetworkPath, the flags,
// the evaluator's answers), and ReachabilityManager beside it. The manager lives here, not in the
// core, because its `didChangeNotification` is Foundation's `Notification.Name`: a program that
// imports only the core (the `reachability` command does) links no Foundation.
@_exported import NetworkReachabilityCore
