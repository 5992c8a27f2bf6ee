// Every code sample of tinyTCA's README (seeds/004), as Docs/ComingFromTinyTCA.md edits it: copied verbatim, with
// each edit marked `// Coming from tinyTCA: <reason>`. Lines marked `// test:` are the test's own, not part of any
// sample. SwiftUI's names are the test's stand-ins (SeedSamplesStandIns.swift), which let the test tap the buttons.
import Foundation
import Testing
import TinyKit
import TinyKitTestServer

// MARK: - The samples

// "Feature Protocol"
struct CounterFeature: Feature {
    struct State: Sendable {
        var count: Int = 0
        var isLoading: Bool = false
    }

    enum Action: Sendable {
        case increment
        case decrement
        case loadRandomNumber
        case setRandomNumber(Int)
    }

    static var initialState: State {
        State()
    }

    static func reducer(state: inout State, action: Action) throws {
        switch action {
        case .increment:
            state.count += 1
        case .decrement:
            state.count -= 1
        case .loadRandomNumber:
            state.isLoading = true
        case .setRandomNumber(let number):
            state.count = number
            state.isLoading = false
        }
    }

    static func effect(for action: Action, state: State) async throws -> Action? {
        switch action {
        case .loadRandomNumber:
            // Simulate API call
            try await Task.sleep(nanoseconds: 1_000_000_000)
            return .setRandomNumber(Int.random(in: 1...100))
        default:
            return nil
        }
    }
}

// "Store"
@MainActor
let store = Store<CounterFeature>()

// "Simple Counter Example"
struct SimpleCounterFeature: Feature {
    struct State: Sendable {
        var count: Int = 0
    }

    enum Action: Sendable {
        case increment
        case decrement
    }

    static var initialState: State { State() }

    static func reducer(state: inout State, action: Action) throws {
        switch action {
        case .increment: state.count += 1
        case .decrement: state.count -= 1
        }
    }
}

/// The samples whose names other tests of the target use too (`ContentView`, `User`).
enum TinyTCASeed {
    // "SwiftUI Integration"
    struct ContentView: View {
        @StoreState private var state: CounterFeature.State

        init(store: Store<CounterFeature>) {
            self._state = StoreState(store)
        }

        var body: some View {
            VStack {
                Text("Count: \(state.count)")

                if state.isLoading {
                    ProgressView()
                }

                HStack {
                    // Coming from tinyTCA: `$state` sends with the action's type named (three times)
                    Button("Decrement") {
                        $state.send(CounterFeature.Action.decrement)
                    }

                    Button("Increment") {
                        $state.send(CounterFeature.Action.increment)
                    }

                    Button("Random") {
                        $state.send(CounterFeature.Action.loadRandomNumber)
                    }
                }
            }
        }
    }

    // "Network Loading Example"
    struct UserProfileFeature: Feature {
        struct State: Sendable {
            var user: User?
            var isLoading: Bool = false
            var error: String?
        }

        enum Action: Sendable {
            case loadUser(id: String)
            case userLoaded(User)
            case userLoadFailed(String)
        }

        static var initialState: State { State() }

        static func reducer(state: inout State, action: Action) throws {
            switch action {
            case .loadUser:
                state.isLoading = true
                state.error = nil
            case .userLoaded(let user):
                state.user = user
                state.isLoading = false
            case .userLoadFailed(let error):
                state.error = error
                state.isLoading = false
            }
        }

        static func effect(for action: Action, state: State) async throws -> Action? {
            switch action {
            case .loadUser(let id):
                do {
                    let user = try await UserAPI.fetchUser(id: id)
                    return .userLoaded(user)
                } catch {
                    return .userLoadFailed(error.localizedDescription)
                }
            default:
                return nil
            }
        }
    }

    // What the samples leave to the reader: `User`, and `UserAPI.fetchUser(id:)`, here with TinyKit.
    struct User: Codable, Sendable {
        var id: String
        var name: String
    }

    enum UserAPI {
        /// The test server's base URL while a test runs.
        @TaskLocal static var baseURL = URL(fileURLWithPath: "/")

        static func fetchUser(id: String) async throws -> User {
            try await URLSession.shared.load(Endpoint(json: .get, url: baseURL.appendingRelative("users/\(id)")))
        }
    }
}

// MARK: - Tests

@MainActor @Suite(.timeLimit(.minutes(1))) struct SeedSamplesTinyTCATests {
    typealias ContentView = TinyTCASeed.ContentView
    typealias UserProfileFeature = TinyTCASeed.UserProfileFeature

    @Test func theFeatureAndItsEffectInTheStore() async {
        store.send(.increment)
        store.send(.increment)
        store.send(.decrement)
        #expect(store.state.count == 1)

        let task = store.send(.loadRandomNumber)
        #expect(store.state.isLoading)
        await task.finish()
        #expect(!store.state.isLoading)
        #expect((1...100).contains(store.state.count))
    }

    @Test func theViewShowsTheStateAndSendsActions() async {
        let store = Store<CounterFeature>()
        let view = ContentView(store: store)
        #expect(render(view).texts == ["Count: 0"])

        #expect(render(view).tapButton("Increment"))
        #expect(render(view).tapButton("Increment"))
        #expect(render(view).tapButton("Decrement"))
        #expect(render(view).texts == ["Count: 1"])

        #expect(render(view).tapButton("Random"))
        #expect(render(view).progressViews == [""])
        for await state in store.states where !state.isLoading { break }  // test: the effect ends
        #expect(render(view).progressViews.isEmpty)
        #expect((1...100).map { "Count: \($0)" }.contains(render(view).texts.first ?? ""))
    }

    @Test func theSimpleCounter() {
        let store = Store<SimpleCounterFeature>()
        store.send(.decrement)
        store.send(.decrement)
        store.send(.increment)
        #expect(store.state.count == -1)
    }

    @Test func theNetworkLoadingExample() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /users/1", response: .json(200, #"{"id":"1","name":"Ada"}"#))
        await server.route("GET /users/2", response: .json(404, #"{"error":"no such user"}"#))
        await TinyTCASeed.UserAPI.$baseURL.withValue(server.baseURL) {
            let store = Store<UserProfileFeature>()

            let loading = store.send(.loadUser(id: "1"))
            #expect(store.state.isLoading)
            await loading.finish()
            #expect(store.state.user?.name == "Ada")
            #expect(store.state.error == nil)

            await store.send(.loadUser(id: "2")).finish()
            #expect(store.state.user?.name == "Ada")
            #expect(store.state.error?.contains("404") == true)
            #expect(!store.state.isLoading)
        }
    }

    @Test func swiftUIPreviews() {
        // Coming from tinyTCA: `#Preview` is Xcode's macro; the test renders the same closure with `preview(_:)`.
        let rendered = preview {
            ContentView(store: .preview(CounterFeature.State(count: 42)))
        }
        #expect(rendered.texts == ["Count: 42"])
    }

    /// `#Preview { … }`, rendered.
    func preview(@ViewBuilder _ content: () -> ViewGroup) -> [Rendered] {
        render(content())
    }
}
