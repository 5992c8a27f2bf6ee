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

    /// A delivery drops the states it has handed out in batches of 32 or more: a chain of 100 states, each sent by an observer
    /// from the call of the one before, reaches every observer whole and in order across those drops.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aLongChainOfStatesSentByObserversReachesEveryObserverInOrder() {
        let store = Store<Counter>()
        let (first, second) = (Recorder<Int>(), Recorder<Int>())
        let sender = store.observe { state in
            first.values.append(state.count)
            if state.count < 100 { store.send(.increment) }
        }
        let late = store.observe { second.values.append($0.count) }
        #expect(first.values == Array(0...100))
        #expect(second.values == Array(100...100))  // registered after the chain: the current state only
        store.send(.increment)
        #expect(first.values.last == 101)
        #expect(second.values == [100, 101])
        let chain = store.observe { state in
            if state.count < 300 { store.send(.increment) }
        }
        #expect(first.values == Array(0...300))  // the third observer sends from its first call: 102 to 300
        #expect(second.values == Array(100...300))
        withExtendedLifetime((sender, late, chain)) {}
    }

    /// Observers come and go in the middle of a long chain, across the batches a delivery drops: one cancelled at
    /// state 40 gets nothing after it, one registered then gets 40 in its first call and each later state once; and
    /// one call that sends 200 actions hands each state to every observer once, in order (a queue that dropped 32
    /// where it had delivered more handed states out twice).
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func observersThatComeAndGoInALongChainSeeTheirPartInOrder() {
        let store = Store<Counter>()
        let (leaving, chained, joining) = (Recorder<Int>(), Recorder<Int>(), Recorder<Int>())
        let leaver = store.observe { leaving.values.append($0.count) }
        var joiner: StoreObservation?
        let chainer = store.observe { state in
            chained.values.append(state.count)
            if state.count == 40 {
                leaver.cancel()
                joiner = store.observe { joining.values.append($0.count) }
            }
            if (1..<100).contains(state.count) { store.send(.increment) }
        }
        store.send(.increment)
        #expect(chained.values == Array(0...100))
        #expect(leaving.values == Array(0...40))  // called before the chainer at 40
        #expect(joining.values == Array(40...100))
        let burst = store.observe { state in
            if state.count == 100 { for _ in 0..<200 { store.send(.increment) } }
        }
        #expect(chained.values == Array(0...300))
        #expect(joining.values == Array(40...300))
        #expect(leaving.values == Array(0...40))
        withExtendedLifetime((chainer, joiner, burst)) {}
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
