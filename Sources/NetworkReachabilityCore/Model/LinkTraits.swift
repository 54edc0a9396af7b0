/// Facts about a device that rtnetlink does not carry: udev's DEVTYPE, 802.11-ness, the driver.
struct LinkTraits: Sendable, Hashable {
    /// `DEVTYPE=` of the device's `uevent`: "wlan", "wwan", "bluetooth", "bridge", "vlan", ...
    var deviceType: String?
    /// `phy80211` or `wireless/` in sysfs, or SIOCGIWNAME answered.
    var isWireless = false
    /// The kernel driver: "qmi_wwan", "cdc_mbim", "rndis_host", "ipheth", "veth", ...
    var driver: String?
    /// The USB product string of the device, when sysfs has one (to tell a phone's cdc_ether from a dock's).
    var usbProduct: String?
    /// Named by the configuration.
    var isConfiguredExpensive = false
    var isConfiguredConstrained = false
}
