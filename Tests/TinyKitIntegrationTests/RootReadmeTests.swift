import Foundation
import Testing
import TinyKit
import TinyKitTestServer

// Compiles and runs every snippet of the root README.md (ReadmeSnippetTests checks that each line is here).
// The snippets' file-scope declarations come first; the statements run in `RootReadmeTests` against the in-process
// server. `server` (the tinyAPI base URL string) is task-local, so parallel tests each get their own server.

enum RootReadme {
    @TaskLocal static var server = "http://127.0.0.1:9"
}

private var server: String { RootReadme.server }

struct User: Codable, Sendable, Equatable {
    var id: Int
    var name: String
}

final class UsersAPI: Sendable {
    let url: URL
    init(url: URL) { self.url = url }

    func all() -> Endpoint<[User]> {
        var request = URLRequest(method: .get, url: url)
        request.httpAccept(.json)
        return Endpoint(request: request, decodeResponse: JSONDecoder().decodeResponse)
    }
}

enum UserEndpoint: TinyAPIEndpoint {
    case list
    var baseURL: String { server }
    var path: String { "/users" }
    var method: HTTPMethod { .GET }
}

struct UsersFeature: Feature {
    struct State: Sendable, Equatable { var users: RequestState<[User]> = .idle }
    enum Action: Sendable {
        case load
        case loaded(Result<[User], TinyAPIError>)
    }
    static var initialState: State { State() }
    static func reducer(state: inout State, action: Action) throws {
        switch action {
        case .load: state.users = .loading
        case .loaded(let result): state.users = RequestState(result)
        }
    }
    static func effect(for action: Action, state: State) async throws -> Action? {
        guard case .load = action else { return nil }
        do {
            return .loaded(.success(try await TinyAPIClient.live.request(UserEndpoint.list, as: [User].self)))
        } catch let error as TinyAPIError {
            return .loaded(.failure(error))
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct RootReadmeTests {
    static let people = [User(id: 1, name: "Ann"), User(id: 2, name: "Bo")]

    func startServer() async throws -> TestServer {
        let testServer = try await TestServer.start()
        await testServer.route("GET /users/1", response: try .json(200, Self.people[0]))
        await testServer.route("GET /users", response: try .json(200, Self.people))
        return testServer
    }

    @Test func tinyNetworkingStyle() async throws {
        let testServer = try await startServer()
        defer { testServer.stop() }
        let baseURL = testServer.baseURL

        func user(id: Int) -> Endpoint<User> {
            Endpoint(json: .get, url: baseURL.appendingRelative("users/\(id)"))
        }
        let first = try await URLSessionTransport.shared.load(user(id: 1))
        #expect(first == Self.people[0])
    }

    /// On the main actor, as app code that observes an endpoint runs (so the snippet needs no `await` for it).
    @MainActor @Test func tinyHTTPStyle() async throws {
        let testServer = try await startServer()
        defer { testServer.stop() }
        let baseURL = testServer.baseURL
        var loaded: [User] = []

        let users = StatefulEndpoint(endpoint: UsersAPI(url: baseURL.appendingRelative("users")).all())
        users.loadIfNeeded()
        for await state in users.states {
            if case .success(let everyone) = state {
                print("\(everyone.count) users")
                loaded = everyone
                break
            }
            if case .failure(let error) = state {
                print("failed: \(error)")
                break
            }
        }
        #expect(loaded == Self.people)
    }

    @Test func tinyAPIStyleAndStore() async throws {
        let testServer = try await startServer()
        defer { testServer.stop() }
        try await RootReadme.$server.withValue(testServer.baseURL.absoluteString) {
            let listed = try await TinyAPIClient.live.request(UserEndpoint.list, as: [User].self)
            #expect(listed == Self.people)
            try await runStore()
        }
    }

    @MainActor func runStore() async throws {
        guard #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) else { return }
        let store = Store<UsersFeature>()
        await store.send(.load).finish()
        #expect(store.state.users == .success(Self.people))
    }
}
