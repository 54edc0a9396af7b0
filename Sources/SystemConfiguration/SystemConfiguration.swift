// `import SystemConfiguration` on Linux: Apple's reachability names from ReachabilityCompat, so
// code shared with Apple's platforms (behind `#if canImport(SystemConfiguration)`) builds unchanged.
// On Apple's platforms the SDK's own module is used; a package names this product only for Linux.
#if !canImport(Darwin)
@_exported import ReachabilityCompat
#endif
