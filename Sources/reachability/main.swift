import NetworkReachability
import Dispatch
let args = Array(CommandLine.arguments.dropFirst())
let ns: NetworkNamespace = args.count > 1 ? .named(args[1]) : .current
do {
    let m = args.isEmpty || args[0] == "*" ? PathMonitor(namespace: ns) : try PathMonitor(host: args[0], namespace: ns)
    print(try m.flags(), m.currentPath)
    if args.count > 2 {
        m.pathUpdateHandler = { p in print("update", p) }
        m.start(queue: DispatchQueue(label: "x"))
        dispatchMain()
    }
} catch { print("error:", error) }
