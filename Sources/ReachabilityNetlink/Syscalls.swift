import ReachabilityModel
import ReachabilitySystem
import CNetlink
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Our own system calls (not libnl's), each retried on EINTR, failing with errno.
package enum Syscalls {
    package struct Failure: Error {
        package var function: String
        package var errno: Int32
    }

    package static func open(_ path: String, _ flags: Int32) throws(Failure) -> Int32 {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC)
            if fd >= 0 { return fd }
            if errno != EINTR { throw Failure(function: "open", errno: errno) }
        }
    }

    package static func stat(_ path: String) throws(Failure) -> Glibc.stat {
        var result = Glibc.stat()
        while true {
            if callStat(path, &result) == 0 { return result }
            if errno != EINTR { throw Failure(function: "stat", errno: errno) }
        }
    }

    package static func setNetworkNamespace(_ fd: Int32) throws(Failure) {
        if CNetlink_enterNetworkNamespace(fd) != 0 {
            throw Failure(function: "setns", errno: errno)
        }
    }

    /// Closes once, never retried: after EINTR the descriptor is gone on Linux.
    package static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }
}

/// `stat(2)`; a free function so the name does not collide with the struct inside `Syscalls`.
private func callStat(_ path: String, _ result: inout Glibc.stat) -> Int32 {
    stat(path, &result)
}
