import Foundation

extension SysfsFixture {
    /// `class/net/NAME/speed` and `duplex`, as a wired device's driver reports them.
    func linkSpeed(_ name: String, speed: String, duplex: String) throws {
        try attribute(name, "speed", speed)
        try attribute(name, "duplex", duplex)
    }

    /// `class/net/NAME/wireless/level`: a Wi-Fi station's signal, as the wireless extensions give it.
    func wirelessLevel(_ name: String, _ level: String) throws {
        try attribute(name, "wireless/level", level)
    }

    /// Writes `class/net/NAME/FILE`, replacing it whole (as sysfs shows a new value).
    private func attribute(_ name: String, _ file: String, _ value: String) throws {
        let path = "\(root)/class/net/\(name)/\(file)"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try (value + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
}
