import Testing
import TinyStore
import TinyStoreTesting

/// The README's snippets, compiled and run: the quick start, and effects in the TCA shape.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct ReadmeTests {
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    struct CounterFeature: Feature {
        struct State: Sendable, Equatable {
            var count = 0
        }

        enum Action: Sendable, Equatable {
            case increment
            case incrementLater
        }

        static var initialState: State { State() }

        static func reducer(state: inout State, action: Action) throws {
            switch action {
            case .increment: state.count += 1
            case .incrementLater: break
            }
        }

        static func effect(for action: Action, state: State) async throws -> Action? {
            action == .incrementLater ? .increment : nil
        }
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func quickStart() async {
        let store = Store<CounterFeature>()
        store.send(.increment)
        await store.send(.incrementLater).finish()
        #expect(store.state.count == 2)

        // In tests, with TinyStoreTesting:
        let testStore = TestStore<CounterFeature>()
        await testStore.send(.incrementLater)
        await testStore.receive(.increment) { $0.count = 1 }
        await testStore.finish()
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    struct SearchFeature: Feature {
        struct State: Sendable, Equatable {
            var query = ""
            var results: [String] = []
        }

        enum Action: Sendable, Equatable {
            case queryChanged(String)
            case results([String])
            case disappeared
        }

        static var initialState: State { State() }

        static func reducer(state: inout State, action: Action) throws {
            switch action {
            case .queryChanged(let query): state.query = query
            case .results(let results): state.results = results
            case .disappeared: break
            }
        }

        static func effect(for action: Action, state: State) -> Effect<Action> {
            switch action {
            case .queryChanged(let query):
                return .run { .results(try await search(query)) }.cancellable(id: "search")
            case .disappeared:
                return .cancel(id: "search")
            case .results:
                return .none
            }
        }

        static func search(_ query: String) async throws -> [String] { [query.uppercased()] }
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func effectsInTheTCAShape() async {
        let search = Store<SearchFeature>()
        search.send(.queryChanged("s"))
        await search.send(.queryChanged("sw")).finish()  // the search for "s" was cancelled: its results never arrive
        #expect(search.state.results == ["SW"])
    }
}
