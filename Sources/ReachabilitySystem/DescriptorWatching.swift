/// Something that polls descriptors for the engine on its one loop (`EventLoop`), so the
/// watchers of the Netlink and Resolution layers need no `DispatchSource` and no knowledge of the
/// loop, which sits above them.
package protocol DescriptorWatching: AnyObject, Sendable {
    /// Polls `fileDescriptor` and runs `onReadable` on the loop's thread when it is readable.
    /// Takes the descriptor: it is closed after `unwatch`, never while it may still be polled.
    func watch(_ fileDescriptor: Int32, onReadable: @escaping @Sendable () -> Void) -> WatchToken
    /// Stops watching and closes the descriptor. From any thread, also from a handler.
    func unwatch(_ token: WatchToken)
}

/// Names one `watch`. 0 names none (the loop had ended, and the descriptor is already closed).
package struct WatchToken: Sendable, Hashable {
    package let value: Int

    package init(value: Int) {
        self.value = value
    }
}
