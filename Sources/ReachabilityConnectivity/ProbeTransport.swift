import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
/// What a probe's HTTP exchange runs over: the TCP connection itself (`http://`), or TLS on it (`https://`).
package protocol ProbeTransport: AnyObject {
    /// Sends all of `bytes`, waiting (bounded by the probe's deadline, woken by a cancel) as needed.
    func send(_ bytes: [UInt8]) throws(ProbeFailure)
    /// Receives at most `limit` bytes into `buffer`. - Returns: false when the peer closed.
    func receive(into buffer: inout [UInt8], limit: Int) throws(ProbeFailure) -> Bool
}

extension ProbeConnection: ProbeTransport {}
