import Foundation
import Hummingbird
import NetworkReachability
import ReadyService

// ready-service [--port N] [--target ADDRESS]: serves /health/ready from the pod's own network
// namespace. No privilege is needed: the monitor only reads its own namespace over netlink.
let arguments = CommandLine.arguments
func value(of option: String) -> String? {
    arguments.firstIndex(of: option).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
let port = value(of: "--port").flatMap(Int.init) ?? 8080
let target = value(of: "--target")
let configuration = ReadyServiceConfiguration(port: port, makeMonitor: {
    // With --target: ready when that address (a database, an upstream) is reachable; else the general path.
    if let target { return try PathMonitor(address: target) }
    return PathMonitor()
})
try await buildApplication(configuration).runService()
