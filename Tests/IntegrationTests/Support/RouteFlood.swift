/// `count` distinct IPv4 routes over `destination`, for bursts and storms that reach the engine
/// (the kernel drops route messages about destinations no monitor asks about before they reach
/// its socket): prefixes /8 to /32 of it, each with metrics 1, 2, ... in turn (short lists for
/// the kernel to keep sorted), in table 100, which no rule consults, so no packet meets them.
/// Each is what `ip route add` and `ip route del` take after the verb.
func routesOver(_ destination: String, count: Int) -> [String] {
    let address = destination.split(separator: ".").compactMap { UInt32($0) }.reduce(UInt32(0)) { $0 << 8 | $1 }
    let lengths = Array(8...32)
    return (0..<count).map { index in
        let length = lengths[index % lengths.count]
        let network = address & ~UInt32(0) << UInt32(32 - length)
        let text = (0..<4).map { String(network >> UInt32(24 - 8 * $0) & 0xFF) }.joined(separator: ".")
        return "\(text)/\(length) table 100 metric \(index / lengths.count + 1)"
    }
}
