import Testing
import TinyStore
import TinyStoreTesting

/// The README's quick start, compiled and run.
@MainActor
@Suite struct ReadmeTests {
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
}
