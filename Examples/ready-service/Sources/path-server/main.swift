import Logging
import NetworkReachability
import PathServer

// The general path (the default routes), probed: `connectivity` is `full` once the internet answers.
let monitor = PathMonitor()
monitor.connectivityProbe = try ConnectivityProbe(url: "http://connectivity-check.ubuntu.com/")
try await buildApplication(monitor: monitor, logger: Logger(label: "path-server")).runService()
