/// The names of the kernel's `IFF_*` interface flags, as `ip link` prints them.
enum InterfaceFlagNames {
    /// Each flag's bit and name, in the order `ip link` prints them (iproute2's `print_link_flags`),
    /// with `RUNNING`, which `ip` leaves out, after `UP`.
    static let all: [(bit: UInt32, name: String)] = [
        (0x8, "LOOPBACK"),
        (0x2, "BROADCAST"),
        (0x10, "POINTOPOINT"),
        (0x1000, "MULTICAST"),
        (0x80, "NOARP"),
        (0x200, "ALLMULTI"),
        (0x100, "PROMISC"),
        (0x400, "MASTER"),
        (0x800, "SLAVE"),
        (0x4, "DEBUG"),
        (0x8000, "DYNAMIC"),
        (0x4000, "AUTOMEDIA"),
        (0x2000, "PORTSEL"),
        (0x20, "NOTRAILERS"),
        (0x1, "UP"),
        (0x40, "RUNNING"),
        (0x10000, "LOWER_UP"),
        (0x20000, "DORMANT"),
        (0x40000, "ECHO"),
    ]

    /// The names of the flags set in `flags`, in `ip`'s order; bits without a name are left out.
    static func names(of flags: UInt32) -> [String] {
        all.filter { flags & $0.bit != 0 }.map(\.name)
    }
}
