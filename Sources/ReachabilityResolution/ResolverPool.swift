import ReachabilityModel
import ReachabilityNetlink
import ReachabilitySystem
#if canImport(Glibc)
import Glibc
#endif

/// A small pool of resolver threads that live inside the monitored namespace.
///
/// `getaddrinfo` blocks for as long as a dead name server makes it, so it never runs on the
/// engine's loop or the caller's thread. At most `maximumThreads` run at once: a slow server
/// delays at most that many names, never the engine's events. Each thread enters the namespace
/// once (`setns`) and, for a namespace named by `ip netns`, binds `/etc/netns/NAME/*` over
/// `/etc/*` in a mount namespace of its own, as `ip netns exec` does; it binds again when the
/// configuration changed, since a file replaced by rename is not seen through an old bind.
package final class ResolverPool: Sendable {
    package static let maximumThreads = 4

    package struct Job: Sendable {
        package var name: String
        package var completion: @Sendable (ResolutionOutcome) -> Void

        package init(name: String, completion: @escaping @Sendable (ResolutionOutcome) -> Void) {
            self.name = name
            self.completion = completion
        }
    }

    private struct State {
        var jobs: [Job] = []
        var threads = 0
        var idle = 0
        var stopped = false
        var configurationGeneration: UInt64 = 0
    }

    private let namespace: NetworkNamespace
    /// Where a thread sees through resolved's stub, to tell "no name server" from a failure.
    private let nameServerSources: NameServerSources
    /// The pool's one mutex and the condition its idle threads wait on.
    private let state = WaitableState(State())

    /// - Parameter nameServerSources: resolved's and networkd's files, where they speak for `namespace`.
    package init(namespace: NetworkNamespace, nameServerSources: NameServerSources = .none) {
        self.namespace = namespace
        self.nameServerSources = nameServerSources
    }

    /// Queues a resolution; `completion` runs on a resolver thread.
    package func submit(_ job: Job) {
        let startThread = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.jobs.append(job)
            if state.idle == 0 && state.threads < Self.maximumThreads {
                state.threads += 1
                return true
            }
            return false
        }
        if startThread { spawnWorker() }
        state.signal()
    }

    /// `/etc/resolv.conf`, `/etc/hosts` or their namespace copies changed: bind them again before the next lookup.
    package func configurationChanged() {
        state.withLock { $0.configurationGeneration &+= 1 }
    }

    /// Lets the threads exit; one inside `getaddrinfo` exits when that returns.
    package func stop() {
        state.withLock { state in
            state.stopped = true
            state.jobs.removeAll()
        }
        state.broadcast()
    }

    private func spawnWorker() {
        let work = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let pool = Unmanaged<ResolverPool>.fromOpaque(raw!).takeRetainedValue()
            pool.workerLoop()
            return nil
        }, work)
        if result == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<ResolverPool>.fromOpaque(work).release()
            let orphaned = state.withLock { state -> [Job] in
                state.threads -= 1
                if state.threads == 0 {
                    defer { state.jobs.removeAll() }
                    return state.jobs
                }
                return []
            }
            orphaned.forEach { $0.completion(.temporaryFailure("cannot start a resolver thread: errno \(result)")) }
        }
    }

    private func workerLoop() {
        var entered = ResolverThreadNamespace(namespace: namespace)
        var nameServers = NameServerConfiguration(namespace: namespace, sources: nameServerSources)
        while true {
            let next = state.withLock { state -> (Job, UInt64)? in
                guard !state.stopped, !state.jobs.isEmpty else { return nil }
                return (state.jobs.removeFirst(), state.configurationGeneration)
            }
            guard let (job, generation) = next else {
                let keepGoing = waitForWork()
                if !keepGoing { break }
                continue
            }
            if let failure = entered.prepare(generation: generation) {
                job.completion(.temporaryFailure(failure))
                continue
            }
            job.completion(SystemResolver.resolve(job.name, nameServers: &nameServers))
        }
        state.withLock { $0.threads -= 1 }
    }

    /// Waits until there is a job or the pool stops. - Returns: false when the thread should exit.
    private func waitForWork() -> Bool {
        state.withLock { $0.idle += 1 }
        return state.wait(until: { $0.stopped || !$0.jobs.isEmpty }) { state in
            state.idle -= 1
            return !state.stopped
        }
    }
}
