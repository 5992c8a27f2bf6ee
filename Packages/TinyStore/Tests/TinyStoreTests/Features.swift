import TinyStore

// The seeds' features, with their dependencies injected through a generic parameter so tests are deterministic.

/// Where `CounterFeature` gets its random number, and how long it "loads" first.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
protocol NumberSource {
    static var delay: Duration { get }
    static func next() -> Int
}

/// A fixed number without delay: the tests' source.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
enum FixedNumber: NumberSource {
    static var delay: Duration { .zero }
    static func next() -> Int { 42 }
}

/// The seed's behaviour: a second of "loading", then a random number from 1 to 100.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
enum LiveNumber: NumberSource {
    static var delay: Duration { .seconds(1) }
    static func next() -> Int { Int.random(in: 1...100) }
}

/// tinyTCA's counter; the seed's effect sleeps 1 s and picks `Int.random(in: 1...100)`.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct CounterFeature<Numbers: NumberSource>: Feature {
    struct State: Sendable, Equatable {
        var count: Int = 0
        var isLoading: Bool = false
    }

    enum Action: Sendable, Equatable {
        case increment
        case decrement
        case loadRandomNumber
        case setRandomNumber(Int)
    }

    static var initialState: State {
        State()
    }

    static func reducer(state: inout State, action: Action) throws {
        MainActor.assertIsolated("The reducer runs on the main actor")
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
            try await Task.sleep(for: Numbers.delay)
            return .setRandomNumber(Numbers.next())
        default:
            return nil
        }
    }
}

struct User: Sendable, Equatable {
    var id: String
    var name: String
}

struct UserNotFound: Error, Equatable {}

/// The seed's `UserAPI.fetchUser(id:)`, as a protocol with a stub.
protocol UserAPI {
    static func fetchUser(id: String) async throws -> User
}

enum StubUserAPI: UserAPI {
    static func fetchUser(id: String) async throws -> User {
        guard id == "1" else { throw UserNotFound() }
        return User(id: "1", name: "Ada")
    }
}

/// tinyTCA's network loading example.
struct UserProfileFeature<API: UserAPI>: Feature {
    struct State: Sendable, Equatable {
        var user: User?
        var isLoading: Bool = false
        var error: String?
    }

    enum Action: Sendable, Equatable {
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
                let user = try await API.fetchUser(id: id)
                return .userLoaded(user)
            } catch {
                return .userLoadFailed(error.localizedDescription)
            }
        default:
            return nil
        }
    }
}
