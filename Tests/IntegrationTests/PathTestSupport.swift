import Foundation
@testable import NetworkReachabilityCore
import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
import XCTest

// Support for the tests of issue 4 (paths, interface classification, interface-type filters):
// `nrx-path-` namespaces, sysctls set inside them, sysfs fixtures, and a monitor whose paths are recorded.

/// Runs `body` with a fresh namespace `nrx-path-PID-N-TEST` (see `withNamespace`: deleted, with its
/// `/etc/netns/NAME`, on every exit path; `XCTSkip` when not root).
func withPathNamespace(_ function: String = #function, file: StaticString = #filePath, line: UInt = #line,
                       _ body: (Namespace) throws -> Void) throws {
    try withNamespace(function, prefix: "nrx-path", file: file, line: line, body)
}

/// `sysctl`, wherever this system keeps it.
let sysctlExecutable: String = ["/usr/sbin/sysctl", "/sbin/sysctl", "/usr/bin/sysctl", "/bin/sysctl"]
    .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/sysctl"

extension Namespace {
    /// Sets `key` to `value` inside this namespace (`ip netns exec NAME sysctl -w KEY=VALUE`) and
    /// checks that the namespace now reads it back.
    func setSysctl(_ key: String, _ value: String) throws {
        let set = try runCommand(ipExecutable, ["netns", "exec", name, sysctlExecutable, "-q", "-w", "\(key)=\(value)"])
        guard set.status == 0 else {
            throw CommandFailure(commandLine: "ip netns exec \(name) sysctl -w \(key)=\(value)", status: set.status,
                                 standardError: set.standardError)
        }
        XCTAssertEqual(try sysctl(key), value, "\(key) inside \(name)")
    }

    /// The value of `key` inside this namespace.
    func sysctl(_ key: String) throws -> String {
        let read = try runCommand(ipExecutable, ["netns", "exec", name, sysctlExecutable, "-n", key])
        guard read.status == 0 else {
            throw CommandFailure(commandLine: "ip netns exec \(name) sysctl -n \(key)", status: read.status,
                                 standardError: read.standardError)
        }
        return read.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A general-path monitor with an interface filter; fails the test when it cannot watch this namespace.
    func filteredMonitor(required: NetworkInterface.InterfaceType? = nil, prohibited: [NetworkInterface.InterfaceType] = [],
                         policy: InterfacePolicy = InterfacePolicy(),
                         file: StaticString = #filePath, line: UInt = #line) throws -> PathMonitor {
        let monitor = PathMonitor(requiredInterfaceType: required, prohibitedInterfaceTypes: prohibited,
                                  namespace: reference, interfacePolicy: policy)
        if let error = monitor.setupError {
            XCTFail("the filtered monitor cannot watch \(name): \(error)", file: file, line: line)
            throw error
        }
        return monitor
    }

    /// Adds a veth `device` (peer `device` + "p", up, no address) holding `address`, with no IPv6
    /// link-local addresses anywhere, and waits for its carrier.
    func addLink(_ device: String, peer: String? = nil, address: String? = nil) throws {
        try addVeth(device, peer: peer, addresses: address.map { [$0] } ?? [], linkLocal: false)
        try waitForLink(device, carrier: true)
    }
}

/// A monitor started on a queue of its own, with every path its `pathUpdateHandler` gets recorded.
/// `stop()` cancels it; tests call it with `defer`.
final class WatchedMonitor: Sendable {
    let monitor: PathMonitor
    let paths = Recorder<NetworkPath>()
    let queue: DispatchQueue

    /// Starts `monitor` and waits for its first path.
    init(_ monitor: PathMonitor, _ name: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        self.monitor = monitor
        self.queue = callbackQueue(name)
        let paths = self.paths
        monitor.pathUpdateHandler = { paths.append($0) }
        monitor.start(queue: queue)
        paths.wait(forCount: 1, file: file, line: line)
    }

    /// The last path delivered.
    var last: NetworkPath? { paths.all.last }

    /// Waits until the last delivered path satisfies `predicate`, then lets the queue drain.
    /// - Returns: that path, or nil (after a recorded failure) on timeout.
    @discardableResult
    func wait(until what: String, file: StaticString = #filePath, line: UInt = #line,
              _ predicate: @escaping (NetworkPath) -> Bool) -> NetworkPath? {
        guard paths.wait(until: what, file: file, line: line, { $0.last.map(predicate) ?? false }) else { return nil }
        settle(monitor, queue)
        return paths.all.last
    }

    func stop() {
        monitor.cancel()
    }
}

/// Names of interfaces, for assertions on `availableInterfaces`.
func interfaceNames(_ path: NetworkPath?) -> [String] {
    path?.availableInterfaces.map(\.name) ?? []
}

/// A sysfs root of fixture devices: `ROOT/class/net/IFNAME/...` as udev and the kernel lay them
/// out, for `InterfacePolicy.sysfsRoot`. Removed by `remove()` (tests call it with `defer`).
final class SysfsFixture {
    let root: String
    private var removed = false

    init() throws {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("nrx-path-sysfs-\(getpid())-XXXXXX").path
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else {
            throw CommandFailure(commandLine: "mkdtemp \(template)", status: errno, standardError: String(cString: strerror(errno)))
        }
        root = String(cString: made)
    }

    deinit { remove() }

    func remove() {
        guard !removed else { return }
        removed = true
        try? FileManager.default.removeItem(atPath: root)
    }

    /// A policy that reads this root, with the given configured names.
    func policy(expensive: Set<String> = [], constrained: Set<String> = []) -> InterfacePolicy {
        InterfacePolicy(expensiveInterfaceNames: expensive, constrainedInterfaceNames: constrained, sysfsRoot: root)
    }

    private func netDirectory(_ name: String) throws -> String {
        let directory = "\(root)/class/net/\(name)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    private func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// `class/net/NAME/uevent` with `DEVTYPE=devtype` (wlan, wwan, bluetooth, ...).
    func uevent(_ name: String, devtype: String?) throws {
        let directory = try netDirectory(name)
        var text = "INTERFACE=\(name)\nIFINDEX=99\n"
        if let devtype { text += "DEVTYPE=\(devtype)\n" }
        try write(text, to: "\(directory)/uevent")
    }

    /// `class/net/NAME/phy80211 -> ../../ieee80211/phy0`, as the kernel links an 802.11 device.
    func phy80211(_ name: String) throws {
        let directory = try netDirectory(name)
        try FileManager.default.createDirectory(atPath: "\(root)/class/ieee80211/phy0", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(directory)/phy80211", withDestinationPath: "../../ieee80211/phy0")
        try uevent(name, devtype: nil)
    }

    /// `class/net/NAME/wireless/`, the directory of the wireless extensions.
    func wirelessDirectory(_ name: String) throws {
        let directory = try netDirectory(name)
        try FileManager.default.createDirectory(atPath: "\(directory)/wireless", withIntermediateDirectories: true)
        try uevent(name, devtype: nil)
    }

    /// A USB network function: `class/net/NAME/device -> ../../../devices/usbN/1-1/1-1:1.0`, whose
    /// `driver -> ../../../../bus/usb/drivers/DRIVER`, and the USB device's `product` one level up
    /// (what `device/../product` reads).
    func usbDevice(_ name: String, driver: String, product: String? = nil) throws {
        let directory = try netDirectory(name)
        let usbDevice = "\(root)/devices/usb-\(name)/1-1"
        let function = "\(usbDevice)/1-1:1.0"
        let driverDirectory = "\(root)/bus/usb/drivers/\(driver)"
        try FileManager.default.createDirectory(atPath: function, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: driverDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(function)/driver", withDestinationPath: "../../../../bus/usb/drivers/\(driver)")
        try FileManager.default.createSymbolicLink(atPath: "\(directory)/device", withDestinationPath: "../../../devices/usb-\(name)/1-1/1-1:1.0")
        if let product { try write("\(product)\n", to: "\(usbDevice)/product") }
        try uevent(name, devtype: nil)
    }
}

/// Whether `text` (resolv.conf) names a name server, by glibc's reading: a `nameserver` line with an argument.
/// The test's own reading, independent of the library's.
func resolvConfHasNameServer(_ text: String) -> Bool {
    text.split(separator: "\n").contains { line in
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        return words.count >= 2 && words[0] == "nameserver" && !words[1].hasPrefix("#") && !words[1].hasPrefix(";")
    }
}
