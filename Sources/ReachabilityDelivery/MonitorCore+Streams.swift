import ReachabilityModel

/// The async sequences' side of a monitor (`PathMonitor+AsyncSequence`).
extension MonitorCore {
    /// Adds a stream that receives every distinct path from now on. - Returns: its identifier, or
    /// nil once the monitor is going away.
    package func addStream(_ continuation: AsyncStream<NetworkPath>.Continuation) -> UInt64? {
        state.withLock { state -> UInt64? in
            guard !state.isTornDown else { return nil }
            return state.streams.add(continuation)
        }
    }

    /// Ends every iteration (`cancel()`).
    package func finishStreams() {
        let streams = state.withLock { state -> MonitorStreams in
            defer { state.streams = MonitorStreams() }
            return state.streams
        }
        streams.finish()
    }

    package func removeStream(_ id: UInt64) {
        state.withLock { $0.streams.remove(id) }
    }
}
