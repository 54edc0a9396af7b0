/// What `watch`, `wait` and `demo` check before their first dispatch source or queue: the
/// descriptors libdispatch's event loop takes (`DispatchDescriptors`) and the threads its workers
/// need (`DispatchThreads`). One call, so a new long-running command cannot take one and forget
/// the other.
enum DispatchPreflight {
    /// - Throws: one line naming the resource and its errno.
    static func ensureAvailable() throws(CommandFailure) {
        try DispatchDescriptors.ensureAvailable()
        try DispatchThreads.ensureAvailable()
    }
}
