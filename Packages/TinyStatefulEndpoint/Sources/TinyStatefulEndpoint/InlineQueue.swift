@_spi(TinyKit) import TinyHTTPTransport
/// Runs jobs on the thread of whoever drains it, one job at a time, in the order they were enqueued.
///
/// Jobs are enqueued while the endpoint's lock is held (so their order is the order of the state changes) and run
/// by ``drain()`` after it is released. A drain that finds another one running leaves the new jobs to it, so a job
/// that changes the state again (re-entrantly, or from another thread) never runs ahead of earlier ones.
final class InlineQueue: Sendable {
    private struct Pending {
        var jobs: [@Sendable () -> Void] = []
        var isDraining = false
    }

    private let pending = Locked(Pending())

    /// Appends a job; it runs after every job enqueued before it.
    func enqueue(_ job: @escaping @Sendable () -> Void) {
        pending.withLock { $0.jobs.append(job) }
    }

    /// Runs the queued jobs on this thread, unless a drain is already running (on this or another thread).
    func drain() {
        let starts = pending.withLock { pending in
            guard !pending.isDraining, !pending.jobs.isEmpty else { return false }
            pending.isDraining = true
            return true
        }
        guard starts else { return }
        while true {
            let jobs = pending.withLock { pending in
                defer { pending.jobs = [] }
                if pending.jobs.isEmpty { pending.isDraining = false }
                return pending.jobs
            }
            if jobs.isEmpty { return }
            for job in jobs { job() }
        }
    }
}
