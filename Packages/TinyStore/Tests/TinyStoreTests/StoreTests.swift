import Observation
import Testing
import TinyStore

/// Collects values on the main actor, for callbacks.
@MainActor final class Recorder<Value> {
    var values: [Value] = []
}

/// A weak reference, to check that something was released.
struct Weak<Object: AnyObject> {
    weak var object: Object?

    init(_ object: Object?) {
        self.object = object
    }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct StoreTests {
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    typealias Counter = CounterFeature<FixedNumber>

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func startsFromTheInitialStateOrAGivenOne() {
        #expect(Store<Counter>().state == Counter.State())
        #expect(Store<Counter>(initialState: .init(count: 5)).state.count == 5)
        let preview: Store<Counter> = .preview(Counter.State(count: 42))
        #expect(preview.state.count == 42)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func sendRunsTheReducer() {
        let store = Store<Counter>()
        store.send(.increment)
        store.send(.increment)
        store.send(.decrement)
        #expect(store.state.count == 1)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func effectSendsItsActionBackOnTheMainActor() async {
        let store = Store<Counter>()
        let task = store.send(.loadRandomNumber)
        #expect(store.state.isLoading)
        await task.finish()
        #expect(store.state == Counter.State(count: 42, isLoading: false))
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func theSeedsSlowRandomEffectStopsWhenCancelled() async {
        let store = Store<CounterFeature<LiveNumber>>()
        let task = store.send(.loadRandomNumber)
        task.cancel()
        await task.finish()
        #expect(store.state == CounterFeature<LiveNumber>.State(count: 0, isLoading: true))
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func effectsRunOffTheMainActor() async {
        let store = Store<LabFeature>()
        await store.send(.reportIsolation).finish()
        #expect(store.state.log == ["ran off the main actor"])
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aRejectedActionLeavesTheStateAndIsReported() {
        let errors = Recorder<StoreError<LabFeature.Action>>()
        let store = Store<LabFeature>(onError: { errors.values.append($0) })
        store.send(.increment)
        store.send(.reject)
        #expect(store.state.count == 1)
        #expect(errors.values.count == 1)
        let error = errors.values.first
        #expect(error?.action == .reject)
        #expect(error?.origin == .reducer)
        #expect(error?.error is Rejected)
        #expect(error?.description == "The reducer threw for action reject: Rejected()")
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anEffectErrorIsReported() async {
        let errors = Recorder<StoreError<LabFeature.Action>>()
        let store = Store<LabFeature>(onError: { errors.values.append($0) })
        await store.send(.fail).finish()
        #expect(errors.values.map(\.origin) == [.effect])
        #expect(errors.values.first?.action == .fail)
        #expect(errors.values.first?.error is Boom)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func catchTurnsAnEffectErrorIntoAnAction() async {
        let errors = Recorder<StoreError<LabFeature.Action>>()
        let store = Store<LabFeature>(onError: { errors.values.append($0) })
        await store.send(.fail) { error in .failed("\(error)") }.finish()
        #expect(store.state.log == ["Boom()"])
        #expect(errors.values.isEmpty)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anEffectThrowingCancellationErrorSendsAndReportsNothing() async {
        let errors = Recorder<StoreError<LabFeature.Action>>()
        let store = Store<LabFeature>(onError: { errors.values.append($0) })
        let task = store.send(.giveUp) { error in .failed("\(error)") }
        await task.finish()
        #expect(!task.isCancelled)  // not cancelled from outside: the effect threw the cancellation itself
        #expect(store.state.log.isEmpty)  // the `catch` handler was not asked
        #expect(errors.values.isEmpty)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func finishWaitsForTheWholeChainOfActions() async {
        let store = Store<LabFeature>()
        await store.send(.chain(1)).finish()
        #expect(store.state.log == ["chain 1", "chain 2", "chain 3"])
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func cancellingTheHandleStopsTheEffectWithoutAnActionOrError() async {
        let errors = Recorder<StoreError<LabFeature.Action>>()
        let probe = Probe()
        let store = Store<LabFeature>(initialState: .init(probe: probe), onError: { errors.values.append($0) })
        let task = store.send(.waitForever)
        var events = probe.events.makeAsyncIterator()
        #expect(await events.next() == "started")
        task.cancel()
        await task.finish()
        #expect(task.isCancelled)
        #expect(await events.next() == "cancelled")
        #expect(store.state.log.isEmpty)
        #expect(errors.values.isEmpty)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func cancellingTheAwaitingTaskCancelsTheEffects() async {
        let probe = Probe()
        let store = Store<LabFeature>(initialState: .init(probe: probe))
        let task = store.send(.waitForever)
        var events = probe.events.makeAsyncIterator()
        #expect(await events.next() == "started")
        let waiter = Task { await task.finish() }
        waiter.cancel()
        await waiter.value
        #expect(await events.next() == "cancelled")
        #expect(store.state.log.isEmpty)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func releasingTheStoreCancelsItsEffects() async {
        let probe = Probe()
        var events = probe.events.makeAsyncIterator()
        var store: Store<LabFeature>? = Store(initialState: .init(probe: probe))
        let weakStore = Weak(store)
        let task = store?.send(.waitForever)
        #expect(await events.next() == "started")
        store = nil
        #expect(weakStore.object == nil)
        #expect(await events.next() == "cancelled")
        await task?.finish()
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func releasingTheStoreCancelsTheEffectsOfActionsEffectsSentBack() async throws {
        let probe = Probe()
        var events = probe.events.makeAsyncIterator()
        var store: Store<LabFeature>? = Store(initialState: .init(probe: probe))
        let weakStore = Weak(store)
        let task = store?.send(.startWaiting)  // its effect sends .waitForever back, whose effect waits
        #expect(await events.next() == "started")
        store = nil  // the chain does not keep the store alive
        try #require(weakStore.object == nil)
        #expect(await events.next() == "cancelled")
        await task?.finish()
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func manyActionsWithEffectsInFlightEndInADeterministicState() async {
        let store = Store<LabFeature>()
        var tasks: [StoreTask] = []
        for amount in 1...200 {
            tasks.append(store.send(.add(amount)))
            store.send(.increment)
        }
        for task in tasks { await task.finish() }
        #expect(store.state.count == 200 * 201 / 2 + 200)
        #expect(store.state.log.count == 200)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func sendsFromConcurrentTasksAllApply() async {
        let store = Store<LabFeature>()
        await withTaskGroup(of: Void.self) { group in
            for amount in 1...100 {
                group.addTask { await store.send(.add(amount)).finish() }
            }
        }
        #expect(store.state.count == 5050)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func observationTrackingFiresOnChange() async {
        let store = Store<Counter>()
        let (changes, continuation) = AsyncStream<Void>.makeStream()
        withObservationTracking {
            _ = store.state.count
        } onChange: {
            continuation.yield()
        }
        store.send(.increment)
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() != nil)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func observeCallsBackNowAndAfterEachChangeUntilCancelled() {
        let store = Store<Counter>()
        let seen = Recorder<Int>()
        let observation = store.observe { seen.values.append($0.count) }
        store.send(.increment)
        store.send(.increment)
        observation.cancel()
        store.send(.increment)
        #expect(seen.values == [0, 1, 2])
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func observeStopsWhenTheObservationIsReleased() {
        let store = Store<Counter>()
        let seen = Recorder<Int>()
        var observation: StoreObservation? = store.observe { seen.values.append($0.count) }
        let released = Weak(observation)
        store.send(.increment)
        observation = nil
        #expect(released.object == nil)  // the store holds it weakly: nothing else keeps it alive
        store.send(.increment)
        #expect(seen.values == [0, 1])
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func observersAreCalledInTheOrderTheyWereRegistered() {
        let store = Store<Counter>()
        let calls = Recorder<Int>()
        let observations = (0..<50).map { index in store.observe { _ in calls.values.append(index) } }
        calls.values.removeAll()
        store.send(.increment)
        #expect(calls.values == Array(0..<50))
        withExtendedLifetime(observations) {}
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aStateSentByAnObserverReachesEveryObserverAfterTheCurrentOne() {
        let store = Store<Counter>()
        let (first, second) = (Recorder<Int>(), Recorder<Int>())
        let sender = store.observe { state in
            first.values.append(state.count)
            if state.count == 1 { store.send(.increment) }  // while the other observer has not seen 1 yet
        }
        let late = store.observe { second.values.append($0.count) }
        let joiner = Recorder<StoreObservation>()
        let joining = store.observe { state in
            // Registered while 1 is delivered: it starts from the current state and then sees only later ones.
            guard state.count == 1, joiner.values.isEmpty else { return }
            joiner.values.append(store.observe { second.values.append($0.count * 10) })
        }
        store.send(.increment)
        #expect(first.values == [0, 1, 2])
        #expect(second.values == [0, 1, 20, 2])  // 20: the joiner's first call, with the state then current
        withExtendedLifetime((sender, late, joining, joiner)) {}
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anObservationCancelledDuringADeliveryIsNotCalledAgain() {
        let store = Store<Counter>()
        let seen = Recorder<Int>()
        var later: StoreObservation?
        let canceller = store.observe { state in if state.count == 1 { later?.cancel() } }
        later = store.observe { seen.values.append($0.count) }
        let after = store.observe { seen.values.append($0.count * 10) }
        store.send(.increment)
        store.send(.increment)
        #expect(seen.values == [0, 0, 10, 20])
        withExtendedLifetime((canceller, later, after)) {}
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anEndedObservationReleasesItsCallbackAtOnce() {
        final class Screen {}
        let store = Store<Counter>()
        var screen: Screen? = Screen()
        let released = Weak(screen)
        var observation: StoreObservation? = store.observe { [screen] _ in _ = screen }
        let observationReleased = Weak(observation)
        screen = nil
        #expect(released.object != nil)
        // Released: the observation, its callback and what it holds go now, not at the next change.
        observation = nil
        #expect(observationReleased.object == nil)
        #expect(released.object == nil)

        var other: Screen? = Screen()
        let otherReleased = Weak(other)
        let cancelled = store.observe { [other] _ in _ = other }
        other = nil
        // Cancelled, not released: the callback goes while the observation itself is still held.
        withExtendedLifetime(cancelled) {
            cancelled.cancel()
            cancelled.cancel()  // a second cancel does nothing
            #expect(otherReleased.object == nil)
        }
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func statesDeliversEveryStateAndFinishesWithTheStore() async {
        var store: Store<Counter>? = Store()
        var states = store?.states.makeAsyncIterator()
        store?.send(.increment)
        store?.send(.decrement)
        await store?.send(.increment).finish()
        store = nil
        var counts: [Int] = []
        while let state = await states?.next() { counts.append(state.count) }
        #expect(counts == [0, 1, 0, 1])
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func storeStateCompilesAsTheSeedsSpellIt() {
        // tinyAPI's `UserListView`, without SwiftUI: the property wrapper spelled and set as the seed does.
        struct UserListView {
            @StoreState private var state: UserListFeature<StubUsers>.State
            init(store: Store<UserListFeature<StubUsers>>) {
                self._state = StoreState(store)
            }
            @MainActor var selectedName: String? { state.selectedUser?.name }
            @MainActor func tap(_ user: ListUser) { $state.send(UserListFeature<StubUsers>.Action.selectUser(user)) }
        }
        let store = Store<UserListFeature<StubUsers>>()
        let view = UserListView(store: store)
        view.tap(ListUser(id: 1, name: "Ann", email: "ann@example.com"))
        #expect(view.selectedName == "Ann")
        #expect(store.state.selectedUser?.id == 1)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func storeStateReadsAndSendsLikeTheSeed() {
        struct CounterView {
            @StoreState var state: Counter.State
            init(store: Store<Counter>) {
                self._state = StoreState(store)
            }
            @MainActor func tapIncrement() { $state.send(Counter.Action.increment) }
            @MainActor func tapWrongAction() { $state.send(LabFeature.Action.increment) }
        }
        let view = CounterView(store: .preview(Counter.State(count: 41)))
        view.tapIncrement()
        #expect(view.state.count == 42)
        view.tapWrongAction()  // another feature's action is not sent (and says so on standard error)
        #expect(view.state.count == 42)
    }
}
