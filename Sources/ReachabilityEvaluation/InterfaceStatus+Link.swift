import ReachabilityModel
extension InterfaceStatus {
    /// The status of `link`, with the addresses among `addresses` that it holds.
    package init(link: LinkState, addresses: [InterfaceAddress]) {
        self.init(
            interface: InterfaceClassifier.interface(for: link),
            flagsRaw: link.flags.rawValue,
            operationalState: link.operationalState.name,
            hasCarrier: link.hasCarrier,
            kind: link.kind,
            addresses: addresses.filter { $0.interfaceIndex == link.index }.map { "\($0.address.addressString)/\($0.prefixLength)" }
        )
    }
}
