import Foundation

extension ProcessResources {
    /// The ids of the threads named `name` (`/proc/self/task/*/comm`): the library names its
    /// loops' threads. Ids, not a count: an earlier test's loop may end at any moment, and a count
    /// would take its end for one of ours.
    static func threads(named name: String) -> Set<String> {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return Set(tasks.filter { task in
            let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            return comm?.trimmingCharacters(in: .whitespacesAndNewlines) == name
        })
    }

    /// The threads named `name` now that were not among `earlier`: the ones started since, and
    /// still running.
    static func threads(named name: String, startedSince earlier: Set<String>) -> Set<String> {
        threads(named: name).subtracting(earlier)
    }
}
