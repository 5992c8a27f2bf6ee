@_spi(TinyKit) import TinyHTTPTransport
import Foundation

/// Runs jobs on the main actor one after another, in the order they were enqueued, from any thread.
///
/// One drain task at a time empties the queue, so order holds across jobs (separate `Task { @MainActor in }` per job
/// would not guarantee it): a drain runs the jobs queued so far and, if more arrived meanwhile, schedules the next.
final class MainActorQueue: Sendable {
    private struct Pending {
        var jobs: [@MainActor @Sendable () -> Void] = []
        var isDraining = false
    }

    private let pending = Locked(Pending())

    /// Appends a job; it runs after every job enqueued before it.
    func enqueue(_ job: @escaping @MainActor @Sendable () -> Void) {
        let startDrain = pending.withLock { pending in
            pending.jobs.append(job)
            defer { pending.isDraining = true }
            return !pending.isDraining
        }
        if startDrain {
            Task { @MainActor in self.drain() }
        }
    }

    /// Waits until every job enqueued before this call has run.
    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            enqueue { continuation.resume() }
        }
    }

    /// Runs the jobs queued so far, then hands the main actor back before running any queued meanwhile, so a
    /// steady stream of state changes cannot starve other main-actor work.
    @MainActor private func drain() {
        let jobs = pending.withLock { pending in
            defer { pending.jobs = [] }
            return pending.jobs
        }
        for job in jobs { job() }
        let hasMore = pending.withLock { pending in
            if pending.jobs.isEmpty { pending.isDraining = false }
            return pending.isDraining
        }
        if hasMore {
            Task { @MainActor in self.drain() }
        }
    }
}
