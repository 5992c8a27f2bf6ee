// The spellings tinyTCA's README (seeds/004) names or implies outside its code samples, as
// Docs/ComingFromTinyTCA.md's "Other spellings the README names" gives them in TinyKit: one test per row that has a
// TinyKit spelling, so the table cannot rot. The samples themselves are SeedSamplesTinyTCATests'.
import Foundation
import Observation
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyKit

@MainActor @Suite(.timeLimit(.minutes(1))) struct SeedSpellingsTinyTCATests {
    struct Counter: Feature {
        struct State: Sendable, Equatable {
            var count = 0
        }

        enum Action: Sendable {
            case increment
            case setCount(Int)
            case load
            case loaded(Int)
            case loadFailed(String)
        }

        struct Invalid: Error {}
        struct Offline: Error {}

        static var initialState: State { State() }

        static func reducer(state: inout State, action: Action) throws {
            switch action {
            case .increment: state.count += 1
            case .setCount(let count):
                guard count >= 0 else { throw Invalid() }
                state.count = count
            case .load: break
            case .loaded(let count): state.count = count
            case .loadFailed: state.count = -1
            }
        }

        static func effect(for action: Action, state: State) async throws -> Action? {
            guard case .load = action else { return nil }
            throw Offline()
        }
    }

    /// "@ObservableObject integration", "@Published": `Store` is `Observable`; a view (or
    /// `withObservationTracking`) that reads `store.state` hears of the change.
    @Test func theStoreIsObservable() {
        let store = Store<Counter>()
        let changed = Locked(false)
        withObservationTracking {
            _ = store.state.count
        } onChange: {
            changed.withLock { $0 = true }
        }

        store.send(.increment)

        #expect(changed.withLock { $0 })
    }

    /// `store.$state` (the `@Published` publisher) → `store.observe { … }` or `store.states`.
    @Test func publishedStateIsObserveOrStates() async {
        let store = Store<Counter>()
        var seen: [Int] = []
        let observation = store.observe { state in seen.append(state.count) }
        var states = store.states.makeAsyncIterator()

        store.send(.increment)

        #expect(seen == [0, 1])
        #expect(await states.next()?.count == 0)  // the current state first, then each change
        #expect(await states.next()?.count == 1)
        observation.cancel()
    }

    /// tinyTCA's `store.binding` is not kept: read `store.state`, change it with an action (a SwiftUI `Binding(get:set:)`
    /// over these two closures).
    @Test func bindingIsReadAndSend() {
        let store = Store<Counter>()
        let get = { store.state.count }
        let set: (Int) -> Void = { count in store.send(.setCount(count)) }

        set(42)

        #expect(get() == 42)
    }

    /// `$state` was the `Store`; in TinyKit it is the `StoreState` wrapper, which sends (with the action's type
    /// named) and nothing else: keep the `Store` for the rest.
    @Test func projectedStateSends() {
        let store = Store<Counter>()
        let state = StoreState(store)

        state.projectedValue.send(Counter.Action.increment)

        #expect(state.wrappedValue.count == 1)
        #expect(store.state.count == 1)
    }

    /// "Can throw errors for invalid state transitions": tinyTCA dropped the error; TinyKit leaves the state as it
    /// was and hands the error to `onError`.
    @Test func aReducerErrorReachesOnError() {
        var errors: [StoreError<Counter.Action>] = []
        let store = Store<Counter>(onError: { errors.append($0) })

        store.send(.setCount(-5))

        #expect(store.state.count == 0)
        #expect(errors.map(\.origin) == [.reducer])
        #expect(errors.first?.error is Counter.Invalid)
    }

    /// "Handle errors gracefully by returning appropriate failure actions": an effect's error goes to `onError`,
    /// or `send(_:catch:)` turns it into an action; `send` returns a `StoreTask` to await.
    @Test func anEffectErrorReachesOnErrorOrCatch() async {
        var errors: [StoreError<Counter.Action>] = []
        let store = Store<Counter>(onError: { errors.append($0) })

        await store.send(.load).finish()
        #expect(errors.map(\.origin) == [.effect])

        await store.send(.load) { error in .loadFailed("\(error)") }.finish()
        #expect(store.state.count == -1)
        #expect(errors.count == 1)
    }
}
