import Foundation
import Testing
import TinyStore
import TinyStoreTesting

#if canImport(SwiftUI)
    import SwiftUI
#endif

// Every ```swift block of TinyStore's and TinyStoreTesting's DocC comments and Documentation.docc articles, compiled
// here (the repository's other doc snippets are in Tests/TinyKitIntegrationTests/DocCommentSnippetTests.swift, which
// also checks that each block's lines appear in one of these files, in order). Each snippet is copied verbatim, in a
// namespace or function named after its file and line, with only the context a reader supplies around it marked
// `// context`; `…` stands for code the snippet leaves out. The SwiftUI views compile where SwiftUI is.

// MARK: Feature.swift:3, Store.swift:6, Store.swift:216, StoreState.swift:6, ObservationLifetime.md:31

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
enum StoreDocSnippets {
    // Packages/TinyStore/Sources/TinyStore/Feature.swift:3
    struct CounterFeature: Feature {
        struct State: Sendable, Equatable { var count = 0 }
        enum Action: Sendable { case increment }
        static var initialState: State { State() }
        static func reducer(state: inout State, action: Action) throws {
            switch action {
            case .increment: state.count += 1
            }
        }
    }

    // Packages/TinyStore/Sources/TinyStore/Store.swift:6
    @MainActor static func store() {
        let store = Store<CounterFeature>()
        store.send(.increment)
        #expect(  // context: the comment's claim
            store.state.count  // 1
                == 1)  // context
    }

    // Packages/TinyStore/Sources/TinyStore/Store.swift:216
    @MainActor static func observe(store: Store<CounterFeature>) {
        let observation = store.observe { state in print(state.count) }
        _ = observation  // context
    }

    // Packages/TinyStore/Sources/TinyStore/StoreState.swift:6
    #if canImport(SwiftUI)
        struct CounterView: View {
            @StoreState private var state: CounterFeature.State
            init(store: Store<CounterFeature>) { self._state = StoreState(store) }
            var body: some View {
                Button("\(state.count)") { $state.send(CounterFeature.Action.increment) }
            }
        }
    #endif

    // Packages/TinyStore/Sources/TinyStore/Documentation.docc/ObservationLifetime.md:31
    @MainActor final class CounterScreen {
        private var observation: StoreObservation?

        init(store: Store<CounterFeature>) {
            observation = store.observe { [weak self] state in self?.render(state) }
        }

        func render(_ state: CounterFeature.State) { rendered.append(state.count) }  // context: the snippet's `{ … }`
        var rendered: [Int] = []  // context
    }  // releasing the screen releases the token: the callback stops
}

// MARK: Effect.swift:4, Documentation.docc/GettingStarted.md:39, Store.swift:84, Store.swift:230, GettingStarted.md:84

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
enum SearchDocSnippets {
    enum API { static func search(_ query: String) async throws -> [String] { [query] } }  // context

    struct SearchFeature: Feature {  // context
        struct State: Sendable, Equatable { var results: [String] = [] }  // context
        enum Action: Sendable, Equatable {  // context
            case queryChanged(String)  // context
            case results([String])  // context
            case disappeared  // context
        }  // context
        static var initialState: State { State() }  // context
        static func reducer(state: inout State, action: Action) throws {  // context
            if case .results(let results) = action { state.results = results }  // context
        }  // context

        // Packages/TinyStore/Sources/TinyStore/Effect.swift:4
        static func effect(for action: Action, state: State) -> Effect<Action> {
            switch action {
            case .queryChanged(let query):  // search as you type: a new query cancels the search in flight
                return .run { .results(try await API.search(query)) }.cancellable(id: "search")
            case .disappeared:  // the screen went away
                return .cancel(id: "search")
            default:
                return .none
            }
        }
    }

    struct SearchFeatureArticle: Feature {  // context
        typealias State = SearchFeature.State  // context
        typealias Action = SearchFeature.Action  // context
        static var initialState: State { State() }  // context
        static func reducer(state: inout State, action: Action) throws {}  // context

        // Packages/TinyStore/Sources/TinyStore/Documentation.docc/GettingStarted.md:39
        static func effect(for action: Action, state: State) -> Effect<Action> {
            switch action {
            case .queryChanged(let query):  // a new query cancels the search in flight
                return .run { .results(try await API.search(query)) }.cancellable(id: "search")
            case .disappeared:  // the screen went away
                return .cancel(id: "search")
            default:
                return .none
            }
        }
    }

    struct UserFeature: Feature {  // context
        struct State: Sendable, Equatable {  // context
            var isLoading = false  // context
            var failure: String?  // context
        }  // context
        enum Action: Sendable {  // context
            case load  // context
            case loadFailed(String)  // context
        }  // context
        static var initialState: State { State() }  // context
        static func reducer(state: inout State, action: Action) throws {  // context
            if case .loadFailed(let message) = action { state.failure = message }  // context
        }  // context
        static func effect(for action: Action, state: State) async throws -> Action? {  // context
            guard case .load = action else { return nil }  // context
            throw URLError(.notConnectedToInternet)  // context
        }  // context
    }

    // Packages/TinyStore/Sources/TinyStore/Store.swift:84
    @MainActor static func sendCatch(store: Store<UserFeature>) {
        store.send(.load) { error in .loadFailed(error.localizedDescription) }
    }

    // Packages/TinyStore/Sources/TinyStore/Store.swift:230
    @MainActor static func states(store: Store<UserFeature>) async {
        for await state in store.states where !state.isLoading { print(state) }  // context: the snippet's `{ … }`
    }

    // Packages/TinyStore/Sources/TinyStore/Documentation.docc/GettingStarted.md:84
    static func log(_ error: StoreError<UserFeature.Action>) {}  // context
    @MainActor static func onError() {
        let store = Store<UserFeature>(onError: { error in log(error) })
        store.send(.load) { error in .loadFailed(error.localizedDescription) }
    }
}

// MARK: Documentation.docc/GettingStarted.md:9, :54, :64, :77

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
enum StoreArticleSnippets {
    // Packages/TinyStore/Sources/TinyStore/Documentation.docc/GettingStarted.md:9
    struct CounterFeature: Feature {
        struct State: Sendable, Equatable { var count = 0 }
        enum Action: Sendable, Equatable { case increment, incrementLater }

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

    // Packages/TinyStore/Sources/TinyStore/Documentation.docc/GettingStarted.md:54
    @MainActor static func sendAndFinish() async -> Int {
        let store = Store<CounterFeature>()
        store.send(.increment)
        await store.send(.incrementLater).finish()  // waits for the effect and the action it sends back
        return store.state.count  // context
    }

    // Packages/TinyStore/Sources/TinyStore/Documentation.docc/GettingStarted.md:64
    #if canImport(SwiftUI)
        struct CounterView: View {
            @StoreState private var state: CounterFeature.State
            init(store: Store<CounterFeature>) { self._state = StoreState(store) }
            var body: some View {
                Button("Count: \(state.count)") { $state.send(CounterFeature.Action.increment) }
            }
        }
    #endif

    // Packages/TinyStore/Sources/TinyStore/Documentation.docc/GettingStarted.md:77
    @MainActor static func observeAndIterate(store: Store<CounterFeature>) async {
        let observation = store.observe { state in print(state.count) }
        for await state in store.states { print(state.count) }
        _ = observation  // context
    }
}

// MARK: TinyStoreTesting: TestStore.swift:6, :83, :116, :144, TinyStoreTesting.md:9, GettingStarted.md:11, :19

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
enum TestStoreDocSnippets {
    /// The counter the TestStore snippets assume: tinyTCA's, with a fixed number.
    struct CounterFeature: Feature {  // context
        struct State: Sendable, Equatable {  // context
            var count = 0  // context
            var isLoading = false  // context
        }  // context
        enum Action: Sendable, Equatable {  // context
            case increment  // context
            case loadRandomNumber  // context
            case setRandomNumber(Int)  // context
        }  // context
        static var initialState: State { State() }  // context
        static func reducer(state: inout State, action: Action) throws {  // context
            switch action {  // context
            case .increment: state.count += 1  // context
            case .loadRandomNumber: state.isLoading = true  // context
            case .setRandomNumber(let number): (state.count, state.isLoading) = (number, false)  // context
            }  // context
        }  // context
        static func effect(for action: Action, state: State) -> Effect<Action> {  // context
            action == .loadRandomNumber ? .run { .setRandomNumber(42) } : .none  // context
        }  // context
    }

    // Packages/TinyStore/Sources/TinyStoreTesting/TestStore.swift:6
    // Packages/TinyStore/Sources/TinyStoreTesting/Documentation.docc/TinyStoreTesting.md:9
    @MainActor static func testStore() async {
        let store = TestStore<CounterFeature>()
        await store.send(.increment) { $0.count = 1 }
        await store.send(.loadRandomNumber) { $0.isLoading = true }
        await store.receive(.setRandomNumber(42)) {
            $0.count = 42
            $0.isLoading = false
        }
        await store.finish()
    }

    // Packages/TinyStore/Sources/TinyStoreTesting/TestStore.swift:83
    @MainActor static func send(store: TestStore<CounterFeature>) async {
        await store.send(.increment) { $0.count = 1 }
    }

    // Packages/TinyStore/Sources/TinyStoreTesting/TestStore.swift:116
    @MainActor static func receive(store: TestStore<CounterFeature>) async {
        await store.receive(.setRandomNumber(42)) { $0.count = 42 }
    }

    // Packages/TinyStore/Sources/TinyStoreTesting/TestStore.swift:144
    // Packages/TinyStore/Sources/TinyStoreTesting/Documentation.docc/GettingStarted.md (inline, not a block)
    enum UsersAction: Sendable { case usersResponse(Result<[String], URLError>) }  // context
    struct UsersFeature: Feature {  // context
        struct State: Sendable, Equatable { var users: [String] = [] }  // context
        typealias Action = UsersAction  // context
        static var initialState: State { State() }  // context
        static func reducer(state: inout State, action: Action) throws {  // context
            if case .usersResponse(.success(let users)) = action { state.users = users }  // context
        }  // context
    }
    @MainActor static func receiveMatching(store: TestStore<UsersFeature>) async {
        // context: the closure's body is the snippet's `{ … }`
        await store.receive({ if case .usersResponse(.success) = $0 { true } else { false } }) { $0.users = ["Ada"] }
    }

    // Packages/TinyStore/Sources/TinyStoreTesting/Documentation.docc/GettingStarted.md:11
    protocol NumberSource { static func next() -> Int }
    enum FixedNumber: NumberSource { static func next() -> Int { 42 } }
    enum Generic {  // context: apart from the non-generic counter of the other snippets
        struct CounterFeature<Numbers: NumberSource>: Feature {  // context: the snippet's `{ … }` follows
            typealias State = TestStoreDocSnippets.CounterFeature.State  // context
            typealias Action = TestStoreDocSnippets.CounterFeature.Action  // context
            static var initialState: State { State() }  // context
            static func reducer(state: inout State, action: Action) throws {  // context
                try TestStoreDocSnippets.CounterFeature.reducer(state: &state, action: action)  // context
            }  // context
            static func effect(for action: Action, state: State) async throws -> Action? {  // context
                action == .loadRandomNumber ? .setRandomNumber(Numbers.next()) : nil  // context
            }  // context
        }  // context
    }  // context
    typealias CounterFeatureOfNumbers = Generic.CounterFeature  // context

}

// Packages/TinyStore/Sources/TinyStoreTesting/Documentation.docc/GettingStarted.md:19
@Suite(.timeLimit(.minutes(1))) struct TestStoreArticleSnippetTests {
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)  // context
    typealias CounterFeature = TestStoreDocSnippets.CounterFeatureOfNumbers  // context
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)  // context
    typealias FixedNumber = TestStoreDocSnippets.FixedNumber  // context

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)  // context
    @MainActor @Test func loadsARandomNumber() async {
        let store = TestStore<CounterFeature<FixedNumber>>()
        await store.send(.loadRandomNumber) { $0.isLoading = true }
        await store.receive(.setRandomNumber(42)) {
            $0.count = 42
            $0.isLoading = false
        }
        await store.finish()
    }
}

/// Runs the snippets whose comments claim a result.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct DocCommentSnippetTests {
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func storeSendsAtOnce() {
        StoreDocSnippets.store()
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func releasingTheScreenStopsItsCallback() {
        let store = Store<StoreDocSnippets.CounterFeature>()
        var screen: StoreDocSnippets.CounterScreen? = StoreDocSnippets.CounterScreen(store: store)
        store.send(.increment)
        #expect(screen?.rendered == [0, 1])
        screen = nil
        store.send(.increment)
        #expect(screen == nil && store.state.count == 2)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aCatchHandlerTurnsTheErrorIntoAnAction() async {
        let store = Store<SearchDocSnippets.UserFeature>(onError: { Issue.record("onError: \($0)") })
        await store.send(.load) { error in .loadFailed(error.localizedDescription) }.finish()
        #expect(store.state.failure != nil)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func finishWaitsForTheEffectAndTheActionItSendsBack() async {
        #expect(await StoreArticleSnippets.sendAndFinish() == 2)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @Test func theTestStoreSnippetPasses() async {
        await TestStoreDocSnippets.testStore()
    }
}
