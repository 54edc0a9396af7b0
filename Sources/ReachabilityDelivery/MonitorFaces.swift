import ReachabilityModel

/// The callbacks of one monitor (its faces), each told only of the states it has not seen yet.
///
/// Every face PathMonitor offers on a queue is one entry here, and one adapter (`Callout.run`):
/// the C callback with its retained context, the flags closure, `pathUpdateHandler`, the delegate.
/// A face watches the flags or the whole path, and remembers the last one it was told, so a face
/// set on a scheduled monitor is told the current state once without the others hearing it again.
/// Faces run in the order of `Slot`. (The async sequences are the monitor's streams, yielded to
/// on the engine's side; `ReachabilityManager` sits on the flags closure, and Apple's functions of
/// `ReachabilityCompat` on the C callback, their run loops being a hop of the schedule.)
/// The C callback a monitor calls with itself, its flags and the context's `info`: `PathMonitor.Callback`.
package typealias MonitorCallback = @convention(c) (OpaquePointer, ReachabilityFlags, UnsafeMutableRawPointer?) -> Void

/// The monitor a core delivers for, as delivery knows it: the object the C callback and the
/// delegate are told of (`PathMonitor`).
package typealias MonitorOwner = AnyObject & Sendable

/// The delegate face: the public layer's adapter, which holds the user's delegate weakly and tells
/// it of `owner` (the monitor) and its path.
package protocol MonitorDelegateFace: AnyObject, Sendable {
    func monitor(_ owner: any MonitorOwner, didUpdate path: NetworkPath)
}

struct MonitorFaces {
    /// Where a face sits; also the order in which faces run.
    enum Slot: Int, CaseIterable {
        case callback, flagsHandler, pathHandler, delegate
    }

    /// What a face does with a state.
    enum Callout: Sendable {
        case callback(MonitorCallback, CallbackContext?)
        case flags(@Sendable (ReachabilityFlags) -> Void)
        case path(@Sendable (NetworkPath) -> Void)
        case delegate(any MonitorDelegateFace)

        var watchesFlagsOnly: Bool {
            switch self {
            case .callback, .flags: true
            case .path, .delegate: false
            }
        }

        /// On the monitor's queue (or where its schedule's hop took the delivery), under its callout
        /// lock. `owner` is the monitor the C callback and the delegate are told of; nil once it is
        /// gone (they are skipped then).
        func run(_ path: NetworkPath, owner: (any MonitorOwner)?) {
            switch self {
            case .callback(let callback, let context):
                guard let owner else { return }
                callback(OpaquePointer(Unmanaged.passUnretained(owner).toOpaque()), path.flags, context?.info)
            case .flags(let handler):
                handler(path.flags)
            case .path(let handler):
                handler(path)
            case .delegate(let face):
                guard let owner else { return }
                face.monitor(owner, didUpdate: path)
            }
        }
    }

    /// The face at each slot, and what each was last told: one table, read and written in place
    /// (a face is not copied out and back to tell whether a state is news to it).
    private var faces = Array(repeating: Face(), count: Slot.allCases.count)

    private struct Face {
        var callout: Callout?
        var seen = Seen.nothing
    }

    /// What a face was last told: a face of flags keeps the flags alone, not the path (a path may
    /// be shared by ten thousand monitors, and each reference kept is counted on it).
    private enum Seen {
        case nothing
        case flags(ReachabilityFlags)
        case path(NetworkPath)

        func isNews(_ path: NetworkPath) -> Bool {
            switch self {
            case .nothing: true
            case .flags(let flags): flags != path.flags
            case .path(let seen): seen != path
            }
        }
    }

    func callout(at slot: Slot) -> Callout? {
        faces[slot.rawValue].callout
    }

    /// Sets or clears the face at `slot`; a new face has seen nothing. - Returns: the face it
    /// replaced, to be let go outside the lock (a context's `release` is the user's code).
    mutating func set(_ callout: Callout?, at slot: Slot) -> Callout? {
        let old = faces[slot.rawValue].callout
        faces[slot.rawValue] = Face(callout: callout)
        return old
    }

    /// A new schedule: every face is told the first state again.
    mutating func forgetSeen() {
        for index in faces.indices { faces[index].seen = .nothing }
    }

    /// The faces `path` is news to, in slot order; each now counts it as seen.
    mutating func due(for path: NetworkPath) -> DueCallouts {
        var due = DueCallouts()
        for index in faces.indices {
            guard let callout = faces[index].callout, faces[index].seen.isNews(path) else { continue }
            faces[index].seen = callout.watchesFlagsOnly ? .flags(path.flags) : .path(path)
            due.append(callout)
        }
        return due
    }

    /// Takes every face out (teardown); the caller lets them go outside the lock.
    mutating func removeAll() -> [Callout] {
        defer { faces = Array(repeating: Face(), count: Slot.allCases.count) }
        return faces.compactMap(\.callout)
    }
}
