import Foundation
import Testing
import TinyStore

/// Review of the one-task-per-chain effects (commit 7809c4a): "an effect that ended lets go of what it captured".
@MainActor @Suite(.timeLimit(.minutes(1))) struct ChainCatchHandlerReviewTests {
    /// Stands for what a `catch` handler captures (a view model, a logger with its buffers).
    final class Captured: Sendable {}

    /// Sends `.tick` with a `catch` handler that captures a new `Captured`, which only the store then holds.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    static func sendWithHandler(to store: Store<TimerChainFeature>) -> (StoreTask, Weak<Captured>) {
        let captured = Captured()
        let task = store.send(.tick) { [captured] _ in withExtendedLifetime(captured) { .tick } }
        return (task, Weak(captured))
    }

    /// Store.swift `start(_:of:catch:)`: the task's closure captured `handler` and then shadowed it; setting the copy
    /// to `nil` after the first effect left the captured one in the closure's context, so the `catch` handler of the
    /// first action (and all it captures) was kept until the whole chain ended: for a self-re-arming timer, as long as
    /// the timer ran. It is kept in the first effect's record now, as its operation is.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func theCatchHandlerOfTheFirstEffectIsReleasedOnceThatEffectEnded() async {
        let probe = ChainProbe()
        let store = Store<TimerChainFeature>(initialState: .init(limit: 2, probe: probe))
        let (timer, watched) = Self.sendWithHandler(to: store)
        for await _ in probe.waiting { break }  // the second tick's effect runs: the first one, with its handler, ended
        #expect(store.state.ticks == 2)

        #expect(watched.object == nil)
        timer.cancel()
        await timer.finish()
        #expect(watched.object == nil)  // released with the whole chain
    }
}
