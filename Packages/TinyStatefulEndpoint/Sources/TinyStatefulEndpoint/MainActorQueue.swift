import Foundation

/// Runs jobs on the main actor one after another, in the order they were enqueued, from any thread.
///
/// One drain task at a time empties the queue, so order holds across jobs (separate `Task { @MainActor in }` per job
/// would not guarantee it).
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

    @MainActor private func drain() {
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
