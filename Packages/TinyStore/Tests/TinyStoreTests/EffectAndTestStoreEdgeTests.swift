import Foundation
import Testing
import TinyStore
import TinyStoreTesting

/// Where the last effect of a ``TimerChainFeature`` tells the test it is waiting, and how deep the stack was when its
/// cancellation reached it.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
final class ChainProbe: @unchecked Sendable {
    // Every access to `depth` holds `lock`: the cancellation handler writes it from the thread that cancels.
    private let lock = NSLock()
    private var depth: Int?
    let waiting: AsyncStream<Void>
    let continuation: AsyncStream<Void>.Continuation

    init() { (waiting, continuation) = AsyncStream<Void>.makeStream() }

    /// The number of frames on the stack when the last effect was cancelled.
    var cancelDepth: Int? {
        get { lock.withLock { depth } }
        set { lock.withLock { depth = newValue } }
    }
}

/// A timer in the only shape an effect allows for it (`.run` sends back one action): each `.tick` re-arms the timer
/// by returning the next `.tick`, until `limit` ticks; the last tick's effect waits until cancelled.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct TimerChainFeature: Feature {
    /// Stands for a large state value (a list of items, an image): a new one at every tick.
    final class Snapshot: Sendable {}

    struct State: Sendable {
        var ticks = 0
        var limit = 0
        var snapshot = Snapshot()
        var probe: ChainProbe?
    }

    enum Action: Sendable { case tick }

    static var initialState: State { State() }

    static func reducer(state: inout State, action: Action) throws {
        state.ticks += 1
        state.snapshot = Snapshot()
    }

    static func effect(for action: Action, state: State) -> Effect<Action> {
        .run {
            guard state.ticks >= state.limit else { return .tick }  // a real timer sleeps a second first
            try await withTaskCancellationHandler {
                state.probe?.continuation.yield()
                try await Task.sleep(for: .seconds(3600))
            } onCancel: {
                state.probe?.cancelDepth = Thread.callStackReturnAddresses.count
            }
            return nil
        }
        .cancellable(id: "timer")
    }
}

/// Effects under ids: two ids stacked on one effect, and ids of different numeric types with the same value.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct StackedIDFeature: Feature {
    struct State: Sendable {}

    enum Action: Sendable {
        /// Waits until cancelled, under `"a"`.
        case waitUnderA
        /// Waits until cancelled, under `"a"` and then marked with `"b"` (`.cancellable(id: "a").cancellable(id: "b")`).
        case waitUnderAAndB
        /// `.cancel(id: "a")`.
        case stopA
        /// Waits until cancelled, under the row id `1` (an `Int`).
        case waitForRow
        /// `.cancel(id:)` of another kind of id that happens to hold the value 1.
        case stopUpload(UInt64)
        case stopAnimation(Double)
    }

    static var initialState: State { State() }

    static func reducer(state: inout State, action: Action) throws {}

    static func effect(for action: Action, state: State) -> Effect<Action> {
        let waitUntilCancelled = Effect<Action>.run {
            try await Task.sleep(for: .seconds(3600))
            return nil
        }
        switch action {
        case .waitUnderA: return waitUntilCancelled.cancellable(id: "a")
        case .waitUnderAAndB: return waitUntilCancelled.cancellable(id: "a").cancellable(id: "b")
        case .stopA: return .cancel(id: "a")
        case .waitForRow: return waitUntilCancelled.cancellable(id: 1)
        case .stopUpload(let id): return .cancel(id: id)
        case .stopAnimation(let id): return .cancel(id: id)
        }
    }
}

/// Cancelling and ending chains of effects (an effect whose action sent back starts the next one), effects under ids,
/// and a test store told to wait without limit.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct EffectAndTestStoreEdgeTests {
    /// Sends `.tick` to a timer that ticks `ticks` times, waits until the last tick's effect runs, then cancels the
    /// first `send`'s handle from a thread with `stackSize` bytes of stack (iOS gives its main thread 1 MiB).
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    static func cancelTimer(afterTicks ticks: Int, onAThreadWithStack stackSize: Int) async {
        let probe = ChainProbe()
        let store = Store<TimerChainFeature>(initialState: .init(limit: ticks, probe: probe))
        let timer = store.send(.tick)
        for await _ in probe.waiting { break }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                timer.cancel()  // a view going away: its `.task` awaiting `timer.finish()` is cancelled
                done.resume()
            }
            thread.stackSize = stackSize
            thread.start()
        }
        await timer.finish()
    }

    /// Each effect of a chain waited for the effects of the action it sent back inside `StoreTask.finish()`, whose
    /// cancellation handler cancelled the next one: cancelling the first handle recursed once per action of the
    /// chain, on the stack of the thread that cancels, and a 10,000-action chain overflowed a 1 MiB stack (a one-second
    /// timer that ran for three hours, cancelled on iOS's main thread). One task runs a chain now.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func cancellingTheHandleOfAChainDoesNotRecurseOncePerActionOfTheChain() async throws {
        let probe = ChainProbe()
        let store = Store<TimerChainFeature>(initialState: .init(limit: 100, probe: probe))
        let timer = store.send(.tick)
        for await _ in probe.waiting { break }  // the 100th tick's effect waits
        let baseline = Thread.callStackReturnAddresses.count
        timer.cancel()
        await timer.finish()
        let depth = try #require(probe.cancelDepth)
        #expect(baseline < 64)  // room below the 128 frames Foundation reports on Linux
        #expect(depth - baseline < 40)  // one tick: about 5 frames
        #expect(store.state.ticks == 100)
    }

    /// The chain of the test above, 10,000 actions long, cancelled on a thread with iOS's main-thread stack (1 MiB).
    /// (In process: a stack overflow would stop the whole test run, loudly.)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func cancellingALongTimerChainDoesNotCrash() async {
        await EffectAndTestStoreEdgeTests.cancelTimer(afterTicks: 10_000, onAThreadWithStack: 1 << 20)
    }

    /// An effect that has ended let go of everything its operation captured (the state it was given: the default shape
    /// of `effect(for:state:)` captures it too) only when every action of the chain after it had ended: a timer that
    /// re-armed itself kept one state per tick for as long as it ran.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anEffectThatEndedReleasesWhatItCapturedWhileTheChainAfterItRuns() async {
        let probe = ChainProbe()
        let store = Store<TimerChainFeature>(initialState: .init(limit: 5, probe: probe))
        let timer = store.send(.tick)
        let firstTick = Weak(store.state.snapshot)  // from now on, held only by the first tick's effect
        for await _ in probe.waiting { break }  // the fifth tick's effect runs: the first ended four ticks ago
        #expect(store.state.ticks == 5)
        #expect(store.effects.count == 1)
        #expect(firstTick.object == nil)
        timer.cancel()
        await timer.finish()
        #expect(firstTick.object == nil)  // released with the whole chain
    }

    /// TCA's `.cancellable(id:)` composes: an effect marked with two ids is cancelled by either. The second id
    /// replaced the first: starting the effect no longer cancelled the one under `"a"`, and `.cancel(id: "a")` did not
    /// stop it.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anEffectMarkedWithTwoIdsStaysUnderBoth() async {
        let store = Store<StackedIDFeature>()
        let earlier = store.send(.waitUnderA)
        let stacked = store.send(.waitUnderAAndB)
        #expect(earlier.isCancelled)  // started under "a": it cancels the effect running under "a"
        earlier.cancel()
        store.send(.stopA)
        #expect(stacked.isCancelled)
        stacked.cancel()
        await earlier.finish()
        await stacked.finish()
    }

    /// Ids were compared as `AnyHashable`, which takes numbers of different types for one value: the id `1` of a row
    /// (`Int`) was also the upload id `1` (`UInt64`) and the animation id `1.0` (`Double`). TCA tells ids of different
    /// types apart, and so does TinyStore now.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func idsOfDifferentTypesWithEqualValuesAreDifferentIds() async {
        let store = Store<StackedIDFeature>()
        let row = store.send(.waitForRow)
        store.send(.stopUpload(1))
        #expect(!row.isCancelled)
        row.cancel()
        await row.finish()

        let other = store.send(.waitForRow)
        store.send(.stopAnimation(1.0))
        #expect(!other.isCancelled)
        other.cancel()
        await other.finish()
    }

    /// A test store waiting `timeout` in `receive` for an effect that ends once `receive` waits.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    static func receive(withTimeout timeout: Duration) async {
        let probe = Probe()
        let store = TestStore<LabFeature>(initialState: .init(probe: probe), timeout: timeout)
        await store.send(.waitForGate)
        var events = probe.events.makeAsyncIterator()
        _ = await events.next()  // "started"
        let open = Task { @MainActor in _ = probe.opener.yield() }  // runs once `receive` waits: the main actor is free
        await store.receive(.finishedWaiting) { $0.log = ["finished waiting"] }
        await store.finish()
        await open.value
    }

    /// `TestStore.wait` slept until `now + timeout` on `ContinuousClock`, which traps when that instant has more
    /// nanoseconds than an `Int64` holds ("Not enough bits to represent the passed value"): `timeout: .seconds(.max)`,
    /// "no timeout", stopped the test process at the first `receive` that waits. (In process: a trap would stop the
    /// whole test run, loudly.)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aTestStoreWithoutTimeoutDoesNotTrap() async {
        await EffectAndTestStoreEdgeTests.receive(withTimeout: .seconds(Int64.max))
    }
}
