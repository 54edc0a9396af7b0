import ReachabilityModel

/// The last few distinct paths an engine made one target at a time, so that an equal path made
/// again shares the first one's storage.
///
/// A pass over many monitors shares one path among the targets with the same answer
/// (`EvaluationPass`), but a monitor being made, scheduled or read is a pass of its own: ten
/// thousand monitors behind one route would each keep a copy of the same few hundred bytes.
/// Handing out an equal path's box changes nothing a reader can see (paths are values).
package struct RecentPaths {
    private var paths: [NetworkPath] = []
    /// How many are kept; a miss costs this many comparisons at most.
    package static var capacity: Int { 8 }

    package init() {}

    /// `path`, or an equal path made earlier (then `path`'s own storage is let go).
    package mutating func interned(_ path: NetworkPath) -> NetworkPath {
        if let index = paths.firstIndex(of: path) {
            return paths[index]
        }
        if paths.count == Self.capacity { paths.removeFirst() }
        paths.append(path)
        return path
    }
}
