extension PathMonitor: AsyncSequence {
    public typealias Element = NetworkPath
    public typealias Failure = Never

    /// Iterating starts monitoring: the first element is the current path, then one per change.
    /// The sequence ends when the monitor is released; ending the iteration stops it.
    public func makeAsyncIterator() -> AsyncStream<NetworkPath>.Iterator {
        let (stream, continuation) = AsyncStream.makeStream(of: NetworkPath.self, bufferingPolicy: .bufferingNewest(64))
        guard let id = core.addStream(continuation) else {
            continuation.finish()
            return stream.makeAsyncIterator()
        }
        let core = self.core
        let engine = self.engine
        continuation.onTermination = { _ in
            core.removeStream(id)
            if !core.isActive { engine?.unsubscribe(core) }
        }
        subscribe()
        return stream.makeAsyncIterator()
    }
}
