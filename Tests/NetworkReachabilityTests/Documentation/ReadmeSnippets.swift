import Dispatch
import NetworkReachability

// The code blocks of the DocC articles GettingStarted.md and PortingFromApple.md (once the
// README's), word for word, one function each: compiled with the tests, never run (they watch the
// real network). The articles mark each block `<!-- in: ... -->` and ReadmeExamplesTests checks
// that it is here.

/// Holders of the blocks; `Delegate` and `StartupError` are what the blocks assume.
enum ReadmeSnippets {
    final class Delegate: PathMonitorDelegate {
        func pathMonitor(_ monitor: PathMonitor, didUpdate path: NetworkPath) {}
    }

    enum StartupError: Error {
        case networkNotReady
    }

    static func asyncSequence() async throws {
        let monitor = try PathMonitor(address: "0.0.0.0")  // can this host reach the IPv4 internet?
        for await path in monitor {  // keep `monitor` referenced: releasing it ends the sequence
            print(path.status, path.flags)
            if path.status == .satisfied { break }  // leaving the loop stops the monitoring
        }
    }

    static func waiting() async throws {
        let database = try PathMonitor(address: "10.0.0.5")
        let cache = try PathMonitor(address: "10.0.0.6")
        guard let paths = try await waitUntilSatisfied([database, cache], mode: .all, timeout: .seconds(30)) else {
            throw StartupError.networkNotReady
        }
        let path = try await PathMonitor().waitUntilSatisfied()  // one monitor, no timeout
        _ = (paths, path)
    }

    static func handlers() async throws {
        let monitor = PathMonitor()  // the general path, as NWPathMonitor(); never throws (see monitor.setupError)
        monitor.pathUpdateHandler = { path in
            print(path.status, path.interface?.name ?? "-", path.gateways, path.supportsIPv4, path.supportsIPv6)
        }
        monitor.start(queue: DispatchQueue(label: "path"))
        // ...
        monitor.cancel()
    }

    static func delegate() async throws {
        final class PathLogger: PathMonitorDelegate {
            func pathMonitor(_ monitor: PathMonitor, didUpdate path: NetworkPath) {
                print(monitor.targetDescription, path)  // 192.0.2.1 satisfied via eth0 gw 10.0.0.1 flags -R ------- [ipv4 dns]
            }
        }

        let logger = PathLogger()
        let monitor = try PathMonitor(address: "192.0.2.1")
        monitor.delegate = logger
        monitor.start(queue: .main)
    }

    static func engineThread() throws {
        let monitor = try PathMonitor(address: "10.0.0.5")
        monitor.pathUpdateHandler = { path in
            print(path.status)  // quick, never blocking: the engine reads no kernel message meanwhile
        }
        monitor.scheduleOnEngineThread()
    }

    static func connectivity() async throws {
        let myDelegate = ReadmeSnippets.Delegate()
        let monitor = PathMonitor()   // any initialiser
        // http://: 204 succeeds, or 200 whose body holds the expected text; tcp://HOST:PORT: the connection.
        monitor.connectivityProbe = try ConnectivityProbe(url: "http://192.0.2.1/generate_204",
                                                          timeout: .seconds(5), interval: .seconds(300))
        // https://: the same GET over TLS 1.2/1.3, the certificate verified against the system's trust
        // store (or caFile's roots) and its name against the host: your own service's health check.
        // A TLS failure is .limited, and connectivityReason says which ("TLS: certificate expired").
        monitor.connectivityProbe = try ConnectivityProbe(url: "https://api.example.com/health", expecting: "ok")

        // The path handler
        monitor.pathUpdateHandler = { path in
            if path.connectivity == .portal { print("log in at", path.portalURL ?? "the portal") }
        }
        // The delegate: pathMonitor(_:didUpdate:) gets the same paths
        monitor.delegate = myDelegate
        monitor.start(queue: DispatchQueue(label: "reachability"))

        // The async sequence
        for await path in monitor where path.connectivity == .full { break }

        // On demand, started or not
        let checked = await monitor.checkConnectivity()
        _ = checked
    }

    static func namespaces() async throws {
        let here = PathMonitor(namespace: .current)                                     // the process's own (default)
        let blue = try PathMonitor(address: "10.0.0.1", namespace: .named("blue"))      // /run/netns/blue, as `ip netns add blue`
        let container = PathMonitor(namespace: .path("/proc/4242/ns/net"))              // any nsfs file
        _ = (here, blue, container)
    }

    static func scNetworkReachability() async throws {
        final class Observer {
            func reachabilityChanged(_ flags: ReachabilityFlags) {
                print(flags, ReachabilityStatus(flags: flags).localizedDescription)  // -R ------d Reachable via WiFi
            }
        }

        let observer = Observer()
        let reachability = try PathMonitor(address: "192.0.2.1")
        var context = PathMonitor.Context(
            version: 0,
            info: Unmanaged.passUnretained(observer).toOpaque(),
            retain: { info in UnsafeRawPointer(Unmanaged<Observer>.fromOpaque(info).retain().toOpaque()) },
            release: { info in Unmanaged<Observer>.fromOpaque(info).release() }
        )
        reachability.setCallback({ _, flags, info in
            Unmanaged<Observer>.fromOpaque(info!).takeUnretainedValue().reachabilityChanged(flags)
        }, context: &context)
        reachability.setDispatchQueue(DispatchQueue(label: "reachability"))  // first callback: the current flags
        print(try reachability.flags())                                      // or ask now
        // ...
        reachability.setDispatchQueue(nil)  // once it returns, no callback runs any more
    }

    static func afNetworkingManager() async throws {
        let manager = try ReachabilityManager(domain: "example.com")  // or .shared, or ReachabilityManager(address:)
        manager.setReachabilityStatusChangeBlock { status in
            print("Reachability: \(status.localizedDescription)")  // Reachability: Reachable via WiFi
        }
        manager.startMonitoring()
        // ...
        manager.stopMonitoring()
    }
}
