// network-status: prints whether the network is usable, then the first state its watcher reports.
let watcher: any NetworkWatcher = SystemNetworkWatcher()
print("now: \(await watcher.isOnline() ? "online" : "offline")")

let (states, continuation) = AsyncStream.makeStream(of: Bool.self)
watcher.start { isOnline in continuation.yield(isOnline) }
for await isOnline in states {
    print("first update: \(isOnline ? "online" : "offline")")
    break
}
watcher.stop()
