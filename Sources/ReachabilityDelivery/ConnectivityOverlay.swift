import ReachabilityConnectivity
import ReachabilityEvaluation
import ReachabilityModel
import ReachabilityNetlink
import ReachabilityResolution
import ReachabilitySystem
/// A monitor's connectivity answer and the engine's path it is composed onto, under the monitor's lock.
///
/// The engine's paths never carry connectivity; `compose` puts the probe's answer on each of
/// them. An answer belongs to one epoch: the path's satisfied-ness, interface, gateways and
/// announced captive-portal API when the probe was asked for. A later path with another
/// interface or gateways starts a new epoch, so an answer about the old network is dropped
/// instead of composed onto the new one, and an answer can never bring back an older engine path
/// (it is composed onto the latest). A new announcement on the same network starts a new epoch
/// too, but the last answer stays on the path until the new API's comes (its source names the
/// API it came from): an announcer on the link cannot pin connectivity at `unknown`.
struct ConnectivityOverlay {
    typealias Key = ConnectivityKey

    /// What the monitor's prober must hear after a composition, outside the lock.
    enum Event {
        case nothing
        /// The path became satisfied or moved: probe it (a new epoch began; answers for older ones are dropped).
        case probe
        /// The path is no longer satisfied: a probe in flight for it may stop.
        case stop
    }

    /// The engine's last path while probing: what the answer is composed onto. Without a prober
    /// the composed path is the engine's own, which the monitor keeps as its current state: not
    /// kept here too (one reference less to count, per monitor and change, on a path that ten
    /// thousand monitors may share).
    private var probedEnginePath: NetworkPath?
    /// Whether the monitor has a prober (the monitor holds it; answers are all this keeps).
    private(set) var isProbing = false
    /// The key of the satisfied path the answer is for; nil while unsatisfied or without a prober.
    private(set) var key: Key?
    private(set) var epoch: UInt64 = 0
    private var answer: ConnectivityAnswer?

    init() {}

    /// A new prober (or none): the old answer no longer holds.
    ///
    /// - Parameter current: the monitor's current state, which is the engine's last path when
    ///   there was no prober.
    mutating func replaceProber(probing: Bool, current: NetworkPath) {
        if !isProbing { probedEnginePath = current }
        isProbing = probing
        key = nil
        answer = nil
        epoch &+= 1
    }

    /// Nobody listens to the monitor any more: its answer would age unseen, so it goes, and the
    /// next path says `unknown` until probed again; the new epoch tells the prober so, and drops
    /// an answer still on its way for the old one.
    mutating func forgetAnswer() {
        guard isProbing else { return }
        answer = nil
        epoch &+= 1
    }

    /// Keeps the engine's `path` and returns it with the connectivity answer on it, and what the
    /// prober must hear.
    mutating func compose(_ path: NetworkPath) -> (NetworkPath, Event) {
        guard isProbing else {
            if probedEnginePath != nil { probedEnginePath = nil }
            return (path, .nothing)
        }
        probedEnginePath = path
        guard path.status == .satisfied else {
            let wasSatisfied = key != nil
            key = nil
            answer = nil
            return (Self.apply(nil, to: path, satisfied: false), wasSatisfied ? .stop : .nothing)
        }
        let newKey = Key(path)
        if newKey != key {
            if key?.isSameNetwork(as: newKey) != true { answer = nil }
            key = newKey
            epoch &+= 1
            return (Self.apply(answer, to: path, satisfied: true), .probe)
        }
        return (Self.apply(answer, to: path, satisfied: true), .nothing)
    }

    /// The engine's last path composed again (after a new prober or answer).
    ///
    /// - Parameter current: the monitor's current state (the engine's last path, unless probing).
    mutating func recompose(current: NetworkPath) -> (NetworkPath, Event) {
        compose(probedEnginePath ?? current)
    }

    /// `path` as `compose` would make it, without changing anything (for `currentPath`).
    func peek(_ path: NetworkPath) -> NetworkPath {
        guard isProbing else { return path }
        let current = path.status == .satisfied && key.map { Key(path).isSameNetwork(as: $0) } == true
        return Self.apply(current ? answer : nil, to: path, satisfied: path.status == .satisfied)
    }

    /// Takes an answer for `epoch`. - Returns: false when the path moved on since (the answer is stale).
    mutating func accept(_ answer: ConnectivityAnswer, epoch: UInt64) -> Bool {
        guard isProbing, key != nil, epoch == self.epoch else { return false }
        self.answer = answer
        return true
    }

    private static func apply(_ answer: ConnectivityAnswer?, to path: NetworkPath, satisfied: Bool) -> NetworkPath {
        var path = path
        path.connectivity = satisfied ? (answer?.connectivity ?? .unknown) : .none
        path.portalURL = answer?.portalURL
        path.connectivitySource = answer?.source
        path.connectivityReason = satisfied ? answer?.reason : ConnectivityReason.none(path.unsatisfiedReason)
        path.captivePortal = satisfied ? answer?.captivePortal : nil
        return path
    }
}
