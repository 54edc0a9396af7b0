import ExampleSupport
import Foundation
import NetworkReachability
import ReachabilityCompat

// af-manager [--domain NAME | --address ADDRESS] [--updates N] [--timeout SECONDS]
//
// AFNetworkReachabilityManager's way: a status-change block and the change notification. Prints
//   Reachability: Reachable via WiFi
//   Notification: Reachable via WiFi
// for each status (the block's line first), and exits after N statuses (status 0), or when the
// timeout passes (status 0 without --updates, else 1). Without --domain or --address it watches
// the shared manager's general path. Run it in a namespace with `ip netns exec NAME af-manager`.

let options = ExampleOptions.parse(name: "af-manager", extra: ["domain", "address"])
let done = DispatchSemaphore(value: 0)

let manager: ReachabilityManager
do {
    if let domain = options.rest["domain"] {
        manager = try ReachabilityManager(domain: domain)
    } else if let address = options.rest["address"] {
        manager = try ReachabilityManager(address: address)
    } else {
        manager = ReachabilityManager.shared
    }
} catch {
    complain("af-manager: \(error)")
    exit(2)
}

let counter = StatusCounter(wanted: options.updates, done: done)
manager.setReachabilityStatusChangeBlock { status in
    say("Reachability: \(status.localizedDescription)")
}
let observer = NotificationCenter.default.addObserver(
    forName: ReachabilityManager.didChangeNotification, object: manager, queue: nil
) { notification in
    guard let status = notification.userInfo?[ReachabilityManager.statusUserInfoKey] as? ReachabilityStatus else { return }
    say("Notification: \(status.localizedDescription)")
    counter.count()
}
manager.startMonitoring()
let status = options.wait(on: done)
manager.stopMonitoring()
NotificationCenter.default.removeObserver(observer)
exit(status)
