import Dispatch
import NetworkReachability

// The DocC articles' small code blocks, word for word, one function each: compiled with the
// tests, never run (they watch the real network). An article marks each block
// `<!-- in: ... -->` and ReadmeExamplesTests checks that it is here. (The README's and the
// articles' blocks it shares with the README are in ReadmeSnippets.swift.)

/// Holders of the articles' blocks.
enum ArticleSnippets {
    /// NetworkReachability.md, the catalog's front page.
    static func overview() {
        let monitor = PathMonitor()   // the general path, like NWPathMonitor()
        monitor.pathUpdateHandler = { path in
            print(path.status, path.interface?.name ?? "-")   // "satisfied eth0"
        }
        monitor.start(queue: DispatchQueue(label: "reachability"))
    }

    /// GettingStarted.md, "Ask once".
    static func askOnce() throws {
        let monitor = try PathMonitor(address: "192.0.2.10")
        let flags = try monitor.flags()
        print(ReachabilityStatus(flags: flags).localizedDescription)   // "Reachable via WiFi"
        print(monitor.currentPath)                                     // "satisfied via eth0 gw 10.0.0.1 flags -R ------- [ipv4 dns]"
    }

    /// ConnectivityProbing.md: a probe, its answers, and a check on demand.
    static func connectivity() async throws {
        let monitor = PathMonitor()
        monitor.connectivityProbe = try ConnectivityProbe(url: "http://192.0.2.1/generate_204")
        monitor.pathUpdateHandler = { path in
            switch path.connectivity {
            case .full: print("online via", path.interface?.name ?? "-")
            case .portal: print("log in at", path.portalURL ?? "the portal")
            case .limited: print("a route, but nothing answers")
            case .none, .unknown: break
            }
        }
        monitor.start(queue: DispatchQueue(label: "reachability"))

        // Or on demand, started or not:
        let path = await monitor.checkConnectivity()
        _ = path
    }

    /// ConnectivityProbing.md, "The probe's parameters": every argument, in order.
    static func probeParameters() throws {
        let probe = try ConnectivityProbe(
            url: "https://probe.example/generate_204",  // http://HOST[:PORT]/PATH, https://HOST[:PORT]/PATH or tcp://HOST:PORT
            expecting: nil,                             // or a text a status 200's body must hold (http:// and https://)
            timeout: .seconds(5),                       // one probe; default 5 s, or the interval when shorter
            interval: .seconds(300),                    // between probes while full
            caFile: nil                                 // or a PEM file of roots to trust instead of the system's (https://)
        )
        _ = probe
    }

    /// ConnectivityProbing.md, "HTTPS: your own service".
    static func httpsProbe(_ monitor: PathMonitor) throws {
        monitor.connectivityProbe = try ConnectivityProbe(url: "https://api.example.com/health",
                                                          expecting: "ok", caFile: "/etc/myapp/ca.pem")
    }

    /// ConnectivityProbing.md, "What the API says".
    static func captivePortalAPI(_ monitor: PathMonitor) async {
        monitor.fetchesCaptivePortalAPI = true
        for await path in monitor.paths() where path.connectivity == .portal {
            print("sign in at", path.captivePortal?.userPortalURL ?? path.portalURL ?? "the portal")
        }
    }

    /// NetworkNamespaces.md.
    static func namespaces() throws {
        let monitor = try PathMonitor(address: "10.0.0.1", namespace: .named("blue"))
        let container = PathMonitor(namespace: .path("/proc/4242/ns/net"))   // its general path
        _ = (monitor, container)
    }

    /// ReachabilityFlags.md.
    static func flags() throws {
        let flags = try PathMonitor(address: "192.0.2.1").flags()
        print(flags)          // "-R -------": reachable through a gateway
        print(flags.names)    // ["reachable"]
    }

    /// TestingWithAFake.md, "Reading the path from async code": a route handler's body.
    static func routeHandler(_ monitor: any PathMonitoring) async -> String {
        let path = await monitor.fetchCurrentPath()
        return path.status == .satisfied ? "up" : "down"
    }
}
