import Testing
import TinyStore

@MainActor
@Suite(.timeLimit(.minutes(1))) struct EffectTests {
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func sendStartsNoTaskWhenTheEffectIsNone() {
        let store = Store<SearchFeature>()
        store.send(.results(["a"]))
        store.send(.disappeared)  // only cancels: no task either
        #expect(store.effects.isEmpty)
        #expect(store.state.results == ["a"])

        store.send(.queryChanged("ab"))
        #expect(store.effects.map(\.action) == [.queryChanged("ab")])

        // The seeds' shape cannot say "no effect" beforehand: its async effect runs in a task for every action.
        let seedShaped = Store<CounterFeature<FixedNumber>>()
        seedShaped.send(.increment)
        #expect(seedShaped.effects.map(\.action) == [.increment])
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func startingAnEffectUnderAnIdCancelsTheOneRunningUnderIt() async {
        let store = Store<SearchFeature>()
        let slow = store.send(.queryChanged("a"))
        let fast = store.send(.queryChanged("ab"))
        #expect(slow.isCancelled)
        await fast.finish()
        await slow.finish()  // its answer, sent after it was cancelled, is dropped
        #expect(store.state == SearchFeature.State(query: "ab", results: ["ab"]))
        #expect(store.effects.isEmpty)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anActionCancelsTheEffectsUnderAnId() async {
        let store = Store<SearchFeature>()
        let search = store.send(.queryChanged("a"))
        store.send(.stopTimer)  // another id: the search goes on
        #expect(!search.isCancelled)
        store.send(.disappeared)
        #expect(search.isCancelled)
        await search.finish()
        #expect(store.state.results.isEmpty)
        #expect(store.effects.isEmpty)
    }

    /// Each running effect stays tracked until it ends, whichever ends first, and only it leaves the list: an effect
    /// started after one ended is told apart from the one still running.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test(arguments: [(first: 1, second: 0), (first: 0, second: 1)])
    func effectsEndingInAnyOrderThenANewOneAreEachTrackedUntilTheyEnd(first: Int, second: Int) async {
        let gates = GatedFeature.Gates(count: 3)
        let store = Store<GatedFeature>(initialState: .init(gates: gates))
        let tasks = [store.send(.start(0)), store.send(.start(1))]
        #expect(store.effects.map(\.action) == [.start(0), .start(1)])

        gates.open(first)
        await tasks[first].finish()
        #expect(store.effects.map(\.action) == [.start(second)])
        let third = store.send(.start(2))
        #expect(store.effects.map(\.action) == [.start(second), .start(2)])
        #expect(Set(store.effects.map(\.serial)).count == 2)

        gates.open(second)
        await tasks[second].finish()
        #expect(store.effects.map(\.action) == [.start(2)])  // the one that ended left, not the new one
        #expect(!third.isCancelled)

        gates.open(2)
        await third.finish()
        #expect(store.effects.isEmpty)
        #expect(
            store.state.log == [
                "start 0", "start 1", "finished \(first)", "start 2", "finished \(second)", "finished 2",
            ])
    }

    /// An effect started after the newest running one ended is told apart from the others still running.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anEffectStartedAfterTheNewestEndedIsToldApartFromTheOlderOnes() async {
        let gates = GatedFeature.Gates(count: 4)
        let store = Store<GatedFeature>(initialState: .init(gates: gates))
        let tasks = (0..<3).map { store.send(.start($0)) }
        gates.open(2)
        await tasks[2].finish()
        let fourth = store.send(.start(3))
        #expect(Set(store.effects.map(\.serial)).count == 3)
        gates.open(1)
        await tasks[1].finish()
        #expect(store.effects.map(\.action) == [.start(0), .start(3)])  // the one that ended left, no other
        for number in [0, 3] { gates.open(number) }
        await tasks[0].finish()
        await fourth.finish()
        #expect(store.effects.isEmpty)
    }
}
