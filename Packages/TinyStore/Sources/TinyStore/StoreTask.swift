/// The effects started by one ``Store/send(_:catch:)``, including the effects of the actions they sent back.
///
/// Await ``finish()`` to wait until all of them are done (a SwiftUI `.task` or `.refreshable` can await the load it
/// started), or ``cancel()`` them. A cancelled effect sends no action back.
public struct StoreTask: Hashable, Sendable {
    let task: Task<Void, Never>?

    /// Cancels the effects (and those of the actions they sent back).
    public func cancel() { task?.cancel() }

    /// Waits until the effects and those of the actions they sent back are done.
    ///
    /// Cancelling the task that awaits cancels the effects too.
    public func finish() async {
        await withTaskCancellationHandler(operation: { await task?.value }, onCancel: { task?.cancel() })
    }

    /// Whether the effect was cancelled: by ``cancel()``, by an effect under the same id (``Effect/cancellable(id:)``,
    /// ``Effect/cancel(id:)``) as it or as the effect of an action it sent back (they run in one task), or because the
    /// store that ran it went away. `false` when the action started no task.
    public var isCancelled: Bool { task?.isCancelled ?? false }
}
