import ReachabilitySystem
/// A request a process sent the kernel, as the messages it caused name it: the sender's port
/// (`nlmsg_pid`, never 0) and its sequence number. The kernel serves a configuration request
/// under its routing lock from start to end, so a message of a later request means the earlier
/// one is over.
package struct NetlinkRequest: Sendable, Hashable {
    package var port: UInt32
    package var sequence: UInt32

    package init(port: UInt32, sequence: UInt32) {
        self.port = port
        self.sequence = sequence
    }
}
