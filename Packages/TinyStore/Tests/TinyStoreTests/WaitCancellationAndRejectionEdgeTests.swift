import Observation
import Testing
import TinyStore
import TinyStoreTesting

/// Two chains of effects whose second effects run under one id: `.relay(n)`'s effect sends `.search(n)` back at once,
/// and `.search(n)`'s effect, under the id `"search"`, waits for gate `n` and then sends `.found(n)`.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct RelayedSearchFeature: Feature {
    struct State: Sendable {
        var log: [String] = []
        var gates: GatedFeature.Gates?
        /// Told the number of each search whose effect has started to wait for its gate.
        var started: AsyncStream<Int>.Continuation?
    }

    enum Action: Sendable, Equatable {
        case relay(Int)
        case search(Int)
        case found(Int)
    }

    static var initialState: State { State() }

    static func reducer(state: inout State, action: Action) throws {
        switch action {
        case .relay(let number): state.log.append("relay \(number)")
        case .search(let number): state.log.append("search \(number)")
        case .found(let number): state.log.append("found \(number)")
        }
    }

    static func effect(for action: Action, state: State) -> Effect<Action> {
        switch action {
        case .relay(let number):
            return .run { .search(number) }
        case .search(let number):
            guard let gate = state.gates?.gates[number] else { return .none }
            return .run { [started = state.started] in
                started?.yield(number)
                for await _ in gate { break }  // ends at once when cancelled: the answer then comes anyway
                return .found(number)
            }
            .cancellable(id: "search")
        case .found:
            return .none
        }
    }
}

/// A test store's `receive` and `finish` when the task awaiting them is cancelled; effects under one id sent back by
/// two chains; what a rejected action does not do.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct WaitCancellationAndRejectionEdgeTests {
    /// Yields the main actor until `done` holds, at most `limit` times: long enough for a task cancelled on this actor
    /// to return, without a timing assumption.
    static func yield(until done: () -> Bool, limit: Int = 1000) async {
        for _ in 0..<limit where !done() { await Task.yield() }
    }

    /// `StoreTask.finish()` ends when the task awaiting it is cancelled, but a test store's `receive` kept waiting
    /// until its action arrived or its timeout passed: with the timeout the documentation allows for "no timeout"
    /// (`.seconds(Int64.max)`, capped at about 95 years), a test whose task was cancelled in `receive` (its
    /// `.timeLimit` passed) did not end. It returns now, reporting the cancellation.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func receiveReturnsWhenTheTaskAwaitingItIsCancelled() async {
        let probe = Probe()
        let store = TestStore<LabFeature>(initialState: .init(probe: probe), timeout: .seconds(Int64.max))
        await store.send(.waitForGate)
        var events = probe.events.makeAsyncIterator()
        #expect(await events.next() == "started")
        let returned = Recorder<Bool>()
        let receiving = Task { @MainActor in
            await withKnownIssue("the cancelled receive reports it") {
                await store.receive(.finishedWaiting) { $0.log = ["finished waiting"] }
            } matching: {
                "\($0)".contains("but its task was cancelled")
            }
            returned.values.append(true)
        }
        await Self.yield(until: { false }, limit: 10)  // `receive` waits
        receiving.cancel()
        await Self.yield(until: { !returned.values.isEmpty })
        #expect(returned.values == [true])
        await receiving.value
        probe.opener.yield()  // the effect ends and sends its action, received by the next `receive`
        await store.receive(.finishedWaiting) { $0.log = ["finished waiting"] }
        await store.finish()
    }

    /// The same for `finish()`: cancelled while an effect ran, it waited on until the effect ended or its timeout
    /// passed. It returns now, reports the effect still running and cancels it.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func finishReturnsWhenTheTaskAwaitingItIsCancelled() async {
        let probe = Probe()
        let store = TestStore<LabFeature>(initialState: .init(probe: probe), timeout: .seconds(Int64.max))
        let effect = await store.send(.waitForever)
        var events = probe.events.makeAsyncIterator()
        #expect(await events.next() == "started")
        let returned = Recorder<Bool>()
        let finishing = Task { @MainActor in
            await withKnownIssue("the cancelled finish reports the effect still running") {
                await store.finish()
            } matching: {
                "\($0)".contains("still running when its task was cancelled")
            }
            returned.values.append(true)
        }
        await Self.yield(until: { false }, limit: 10)  // `finish` waits
        finishing.cancel()
        await Self.yield(until: { !returned.values.isEmpty })
        #expect(returned.values == [true])
        await finishing.value
        _ = effect
        #expect(await events.next() == "cancelled")
    }

    /// Cancel in flight across chains: the effect an action sent back starts under an id and cancels the effect
    /// another chain sent back under it; the cancelled one's answer is dropped, and the first `send`'s handle says it
    /// was cancelled.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anEffectSentBackCancelsByIdTheOneAnotherChainSentBack() async {
        let gates = GatedFeature.Gates(count: 3)
        let (started, continuation) = AsyncStream<Int>.makeStream()
        var searches = started.makeAsyncIterator()
        let store = Store<RelayedSearchFeature>(initialState: .init(gates: gates, started: continuation))
        let first = store.send(.relay(1))
        #expect(await searches.next() == 1)
        let second = store.send(.relay(2))
        #expect(await searches.next() == 2)
        #expect(first.isCancelled)
        #expect(!second.isCancelled)
        #expect(store.effects.map(\.action).contains(.search(2)))
        gates.open(2)
        await second.finish()
        await first.finish()
        #expect(store.state.log == ["relay 1", "search 1", "relay 2", "search 2", "found 2"])
        #expect(store.effects.isEmpty)
    }

    /// A rejected action (its reducer throws) changes nothing anyone sees: no Observation change, no `observe` call,
    /// and no effect (tinyTCA, which ignored the error with `try?`, still ran it). An accepted action that leaves the
    /// state as it was is still one `observe` call, as documented ("after every action the reducer accepts").
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aRejectedActionNotifiesNoObserverAndStartsNoEffect() async {
        let errors = Recorder<StoreError<LabFeature.Action>>()
        let store = Store<LabFeature>(onError: { errors.values.append($0) })
        let seen = Recorder<Int>()
        let observation = store.observe { seen.values.append($0.count) }
        let (changes, continuation) = AsyncStream<Int>.makeStream()
        withObservationTracking {
            _ = store.state
        } onChange: {
            continuation.yield(1)
        }
        let rejected = store.send(.reject)
        #expect(store.effects.isEmpty)  // the `async` effect of an accepted `.reject` would be running
        #expect(!rejected.isCancelled)
        #expect(errors.values.map(\.origin) == [.reducer])
        #expect(seen.values == [0])
        continuation.yield(0)  // what the tracking saw so far: a change would have come first
        store.send(.increment)
        var notifications = changes.makeAsyncIterator()
        #expect(await notifications.next() == 0)
        #expect(await notifications.next() == 1)  // the increment's

        await store.send(.waitForGate).finish()  // accepted, leaves the state as it was (without a probe)
        #expect(seen.values == [0, 1, 1])
        #expect(store.effects.isEmpty)
        withExtendedLifetime(observation) {}
    }
}
