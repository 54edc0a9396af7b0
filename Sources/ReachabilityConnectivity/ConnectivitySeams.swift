/// The probe client's seams for tests, the one file of this target that holds `#if DEBUG`.

#if DEBUG
extension TLSContext {
    /// How many contexts the process made: for tests ("nothing of TLS without an https:// probe").
    package static var made: Int { contexts.withLock { $0.count } }
}
#endif
