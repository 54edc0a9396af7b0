import ReachabilityModel
/// Interface types and costs from what the kernel, sysfs and ioctls say of a link
/// (semantics.md, "Interface types"). Pure: the evidence is gathered by `LinkInspector`.
///
/// Order of evidence, after NetworkManager's: loopback; tunnel kinds; the RAWIP hardware type;
/// then the device itself (udev's DEVTYPE, 802.11-ness, the WWAN drivers, `rmnet*`/`ccmni*`/`wwan*`
/// names), which wins over the veth/bridge kinds so that sysfs fixtures can stand in for devices
/// this kernel cannot create; then Ethernet hardware; everything else is `other`. A PPP link is
/// `other`: nothing in the kernel tells a modem's PPP from PPPoE (name it in
/// `InterfacePolicy.expensiveInterfaceNames` if it is metered).
package enum InterfaceClassifier {
    /// Link kinds that are not Ethernet to a user even when their hardware type says so: tunnels and
    /// virtual devices that carry no traffic of their own (ifb, dummy, nlmon).
    package static let tunnelKinds: Set<String> = NetworkInterface.tunnelKinds.union(["ipoib", "ifb", "dummy", "nlmon", "vcan", "vxcan"])
    package static let cellularDrivers: Set<String> = [
        "qmi_wwan", "cdc_mbim", "huawei_cdc_ncm", "sierra_net", "rmnet", "rmnet_ipa", "ipa", "mhi_net",
        "mhi_netdev", "t7xx", "iosm", "cdc_wdm",
    ]
    package static let cellularNamePrefixes = ["rmnet", "ccmni", "wwan"]
    /// USB tethering drivers that only phones use.
    package static let phoneTetheringDrivers: Set<String> = ["rndis_host", "ipheth"]
    /// Generic USB Ethernet drivers: a phone's tethering only when the USB product says so.
    package static let genericUSBDrivers: Set<String> = ["cdc_ncm", "cdc_ether"]
    package static let phoneProductWords = ["phone", "android", "pixel", "galaxy", "xiaomi", "oneplus", "tether"]

    package static func type(of link: LinkState) -> NetworkInterface.InterfaceType {
        let traits = link.traits
        if link.isLoopback || link.hardwareType == 772 { return .loopback }
        if let kind = link.kind, tunnelKinds.contains(kind) { return .other }
        if link.hardwareType == 519 { return .cellular }  // ARPHRD_RAWIP
        if traits.isWiFi { return .wifi }
        if traits.deviceType == "wwan" || link.kind == "rmnet"
            || traits.driver.map(cellularDrivers.contains) == true
            || cellularNamePrefixes.contains(where: link.name.hasPrefix) {
            return .cellular
        }
        return link.hardwareType == 1 ? .wiredEthernet : .other  // ARPHRD_ETHER
    }

    /// Cellular, Bluetooth PAN, USB tethering to a phone, or named by the configuration.
    package static func isExpensive(_ link: LinkState) -> Bool {
        isExpensive(link, type: type(of: link))
    }

    /// `isExpensive` of a link already classified as `type`.
    static func isExpensive(_ link: LinkState, type: NetworkInterface.InterfaceType) -> Bool {
        let traits = link.traits
        if traits.isConfiguredExpensive || type == .cellular { return true }
        if traits.deviceType == "bluetooth" || traits.driver == "bnep" { return true }
        guard let driver = traits.driver else { return false }
        if phoneTetheringDrivers.contains(driver) { return true }
        if genericUSBDrivers.contains(driver), let product = traits.usbProduct?.lowercased() {
            return phoneProductWords.contains(where: product.contains)
        }
        return false
    }

    /// The link's measured quality where its figures mean something: Wi-Fi and Ethernet (physical or
    /// virtual). Cellular (no ModemManager client here), tunnels (tun reports a fixed 10 Mb/s that
    /// says nothing of the path beneath) and loopback are `unknown`.
    package static func linkQuality(of link: LinkState, type: NetworkInterface.InterfaceType) -> LinkQuality {
        type == .wifi || type == .wiredEthernet ? link.traits.linkQuality : .unknown
    }

    package static func interface(for link: LinkState) -> NetworkInterface {
        let type = type(of: link)
        return NetworkInterface(name: link.name, index: link.index, type: type, isExpensive: isExpensive(link, type: type),
                         isConstrained: link.traits.isConfiguredConstrained || link.traits.isConfiguredUltraConstrained,
                         kind: link.kind, isUltraConstrained: link.traits.isConfiguredUltraConstrained,
                         linkQuality: linkQuality(of: link, type: type))
    }
}
