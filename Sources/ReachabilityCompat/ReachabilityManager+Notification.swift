import Foundation
import NetworkReachability

// AFNetworking's notification, here rather than beside `ReachabilityManager` so that the core
// module does not import Foundation (BENCHMARKS.md, "The command's binary": a static build of a
// program that links Foundation carries its ICU data, ~50 MB).

extension ReachabilityManager {
    /// The name of the notification posted on `NotificationCenter.default` after each status
    /// change, with the manager as its object; AFNetworking's
    /// `AFNetworkingReachabilityDidChangeNotification`, with the same string.
    ///
    /// Posting starts the first time this property is read in the process (observers read it to
    /// subscribe): Swift has no load-time initialiser that could switch it on when this module
    /// is linked. A status change before that first read posts nothing, and nobody could have
    /// been subscribed to it by this name.
    public static let didChangeNotification: Notification.Name = {
        let name = Notification.Name("com.alamofire.networking.reachability.change")
        let key = statusUserInfoKey
        statusPoster.withLock {
            $0 = { manager, status in
                NotificationCenter.default.post(name: name, object: manager, userInfo: [key: status])
            }
        }
        return name
    }()
}
