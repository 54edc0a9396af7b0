import ReachabilitySystem
/// Facts about a device that rtnetlink does not carry: udev's DEVTYPE, 802.11-ness, the driver.
package struct LinkTraits: Sendable, Hashable {
    /// `DEVTYPE=` of the device's `uevent`: "wlan", "wwan", "bluetooth", "bridge", "vlan", ...
    package var deviceType: String?
    /// `phy80211` or `wireless/` in sysfs, or SIOCGIWNAME answered.
    package var isWireless: Bool = false
    /// A Wi-Fi device, by either sign (`DEVTYPE=wlan` or 802.11-ness): its type is `wifi`, and its
    /// signal, which moves without a kernel message, is measured on every change.
    package var isWiFi: Bool { isWireless || deviceType == "wlan" }
    /// The kernel driver: "qmi_wwan", "cdc_mbim", "rndis_host", "ipheth", "veth", ...
    package var driver: String?
    /// The USB product string of the device, when sysfs has one (to tell a phone's cdc_ether from a dock's).
    package var usbProduct: String?
    /// Named by the configuration.
    package var isConfiguredExpensive: Bool = false
    package var isConfiguredConstrained: Bool = false
    package var isConfiguredUltraConstrained: Bool = false
    /// The class of the link layer's figures, with hysteresis (`LinkMeasurement`), measured again
    /// on every change of the link's state (Wi-Fi: on every change of links or addresses). Only the
    /// class is kept here, so a figure that moves within its class changes no link.
    package var linkQuality: LinkQuality = .unknown

    package init(deviceType: String? = nil, isWireless: Bool = false, driver: String? = nil, usbProduct: String? = nil, isConfiguredExpensive: Bool = false, isConfiguredConstrained: Bool = false) {
        self.deviceType = deviceType
        self.isWireless = isWireless
        self.driver = driver
        self.usbProduct = usbProduct
        self.isConfiguredExpensive = isConfiguredExpensive
        self.isConfiguredConstrained = isConfiguredConstrained
    }
}
