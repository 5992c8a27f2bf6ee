import Testing
import TinyStore

/// Bugs found in review, fixed: each test failed before its fix.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct StoreReviewFindingsTests {
    typealias Counter = CounterFeature<FixedNumber>

    /// `observe(_:)` promises that "an action a callback sends reaches every observer after the current state has
    /// reached them all, so each sees the states in order": the first call (made by `observe` itself) too, which was
    /// outside any delivery, so that an action sent from it re-entered the callback before its first call ended.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aStateSentByAnObserverInItsFirstCallReachesItAfterThatCall() {
        let store = Store<Counter>()
        let seen = Recorder<Int>()
        let depth = Recorder<Int>()  // how many calls of the callback were running when one started
        var running = 0
        let observation = store.observe { state in
            depth.values.append(running)
            running += 1
            defer { running -= 1 }
            if state.count == 0 { store.send(.increment) }  // e.g. "start loading when first seen idle"
            seen.values.append(state.count)
        }
        #expect(seen.values == [0, 1])  // 1 after 0: not `[1, 0]`, the second call inside the first
        #expect(depth.values == [0, 0])
        withExtendedLifetime(observation) {}
    }

    /// The same callback registered before the change, and so called from a delivery, sees the states in order.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func theSameCallbackCalledFromADeliverySeesTheStatesInOrder() {
        let store = Store<Counter>()
        let seen = Recorder<Int>()
        let observation = store.observe { state in
            if state.count == 1 { store.send(.increment) }
            seen.values.append(state.count)
        }
        store.send(.increment)
        #expect(seen.values == [0, 1, 2])
        withExtendedLifetime(observation) {}
    }
}
