import ReachabilityModel

/// A monitor's async sequences: each a continuation told every distinct path, on the engine's side
/// of the channel (the consumer's task is the one hop a sequence needs).
struct MonitorStreams {
    private struct Stream {
        package var continuation: AsyncStream<NetworkPath>.Continuation
        var lastYielded: NetworkPath?
    }

    private var streams: [UInt64: Stream] = [:]
    private var nextID: UInt64 = 0

    var isEmpty: Bool { streams.isEmpty }

    /// Adds a stream that receives every distinct path from now on. - Returns: its identifier.
    mutating func add(_ continuation: AsyncStream<NetworkPath>.Continuation) -> UInt64 {
        nextID += 1
        streams[nextID] = Stream(continuation: continuation)
        return nextID
    }

    mutating func remove(_ id: UInt64) {
        streams[id] = nil
    }

    /// Yields `path` to every stream that has not had it last.
    mutating func yield(_ path: NetworkPath) {
        guard !streams.isEmpty else { return } // the common monitor: no iterator made per change
        for (id, stream) in streams where stream.lastYielded != path {
            streams[id]?.lastYielded = path
            stream.continuation.yield(path)
        }
    }

    /// Ends every stream (outside the monitor's lock: a termination handler is the user's code).
    func finish() {
        for stream in streams.values { stream.continuation.finish() }
    }
}
