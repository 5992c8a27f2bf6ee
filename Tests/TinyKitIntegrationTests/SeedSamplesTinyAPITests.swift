// Every code sample of tinyAPI's README (seeds/000), as Docs/ComingFromTinyAPI.md edits it: copied verbatim, with
// each edit marked `// Coming from tinyAPI: <reason>`. Lines marked `// test:` are the test's own (which server
// answers, where a value goes), not part of any sample. The samples' hosts (api.example.com, jsonplaceholder) are
// the in-process test server: `server` is its base URL, a task-local set per test so tests run in parallel.
import Foundation
import Testing
import TinyKit
import TinyKitTestServer
import XCTest

/// The test server's base URL, standing in for the README's hosts.
private var server: String { TinyAPISeed.server }

/// The README's declarations, namespaced: the root README's tests have a `User` and a `UserEndpoint` of their own.
enum TinyAPISeed {
    // test: the test server's base URL while a test runs.
    @TaskLocal static var server = "http://127.0.0.1:9"

    // What the README leaves to the reader.
    struct User: Codable, Sendable, Equatable {
        var id: Int
        var name: String
        var email: String
    }

    struct CreateUserRequest: Codable, Sendable {
        var name: String
        var email: String
    }

    struct Post: Codable, Sendable, Equatable {
        var id: Int
        var title: String
    }

    // "Define your API endpoints using the TinyAPIEndpoint protocol"
    enum UserEndpoint {
        case list
        case create(CreateUserRequest)
        case detail(id: Int)
        case update(id: Int, user: User)
        case delete(id: Int)
    }

    // "tinyAPI includes RequestState<T> that perfectly integrates with tinyTCA's state management"
    struct UserListFeature: Feature {
        struct State: Sendable, Equatable {
            var users: RequestState<[User]> = .idle
            var selectedUser: User?
        }
        enum Action: Sendable {
            case loadUsers
            case usersResponse(Result<[User], TinyAPIError>)
            case selectUser(User)
        }
        static var initialState: State { State() }
        static func reducer(state: inout State, action: Action) throws {
            switch action {
            case .loadUsers:
                state.users = .loading
            case .usersResponse(.success(let users)):
                state.users = .success(users)
            case .usersResponse(.failure(let error)):
                state.users = .failure(error.localizedDescription)
            case .selectUser(let user):
                state.selectedUser = user
            }
        }
        static func effect(for action: Action, state: State) async throws -> Action? {
            let apiClient = APIClientDependency.live.client
            switch action {
            case .loadUsers:
                do {
                    let users = try await apiClient.request(UserEndpoint.list, as: [User].self)
                    return .usersResponse(.success(users))
                } catch let error as TinyAPIError {
                    return .usersResponse(.failure(error))
                } catch {
                    return .usersResponse(.failure(.networkError(error.localizedDescription)))
                }
            default:
                return nil
            }
        }
    }

    // "Use RequestState directly in your SwiftUI views" (SwiftUI's names: the test's stand-ins, SeedSamplesStandIns)
    struct UserListView: View {
        @StoreState private var state: UserListFeature.State
        init(store: Store<UserListFeature>) {
            self._state = StoreState(store)
        }
        var body: some View {
            NavigationView {
                VStack {
                    switch state.users {
                    case .idle:
                        Text("Tap to load users")
                    case .loading:
                        ProgressView("Loading users...")
                    case .success(let users):
                        List(users, id: \.id) { user in
                            VStack(alignment: .leading) {
                                Text(user.name).font(.headline)
                                Text(user.email).font(.caption).foregroundColor(.secondary)
                            }
                            .onTapGesture {
                                // Coming from tinyAPI: `$state` sends with the action's type named
                                $state.send(UserListFeature.Action.selectUser(user))
                            }
                        }
                    case .failure(let error):
                        Text("Error: \(error)")
                            .foregroundColor(.red)
                    }
                }
                .navigationTitle("Users")
                .toolbar {
                    Button("Load") {
                        // Coming from tinyAPI: `$state` sends with the action's type named
                        $state.send(UserListFeature.Action.loadUsers)
                    }
                }
            }
        }
    }

    // "Switch between live and mock implementations easily"
    struct APIClientDependency {
        let client: any APIClientProtocol
        static let live = APIClientDependency(client: TinyAPIClient.live)
        static let mock = APIClientDependency(client: MockTinyAPIClient.demo)
        static let preview = APIClientDependency(client: MockTinyAPIClient.preview)
        static let testing = APIClientDependency(client: MockTinyAPIClient.testing)
    }

    // "Complete example" (PostsFeature)
    struct PostsFeature: Feature {
        struct State: Sendable, Equatable {
            var posts: RequestState<[Post]> = .idle
        }
        enum Action: Sendable {
            case loadPosts
            case postsResponse(Result<[Post], TinyAPIError>)
        }
        static var initialState: State { State() }
        static func reducer(state: inout State, action: Action) throws {
            switch action {
            case .loadPosts:
                state.posts = .loading
            case .postsResponse(.success(let posts)):
                state.posts = .success(posts)
            case .postsResponse(.failure(let error)):
                state.posts = .failure(error.localizedDescription)
            }
        }
        static func effect(for action: Action, state: State) async throws -> Action? {
            switch action {
            case .loadPosts:
                do {
                    let posts = try await APIClientDependency.live.client.get(
                        from: server,  // Coming from tinyAPI: test only, the host is the test server
                        path: "/posts",
                        as: [Post].self
                    )
                    return .postsResponse(.success(posts))
                } catch let error as TinyAPIError {
                    return .postsResponse(.failure(error))
                }
            default:
                return nil
            }
        }
    }
}

// Coming from tinyAPI: test only, `UserEndpoint` is namespaced (see `TinyAPISeed`).
extension TinyAPISeed.UserEndpoint: TinyAPIEndpoint {
    var baseURL: String { server }  // Coming from tinyAPI: test only, the host is the test server
    var path: String {
        switch self {
        case .list: return "/users"
        case .create: return "/users"
        case .detail(let id): return "/users/\(id)"
        case .update(let id, _): return "/users/\(id)"
        case .delete(let id): return "/users/\(id)"
        }
    }
    var method: HTTPMethod {
        switch self {
        case .list, .detail: return .GET
        case .create: return .POST
        case .update: return .PUT
        case .delete: return .DELETE
        }
    }
    var body: Data? {
        switch self {
        case .create(let request):
            return try? JSONEncoder().encode(request)
        case .update(_, let user):
            return try? JSONEncoder().encode(user)
        default:
            return nil
        }
    }
    var headers: [String: String]? { nil }
    var queryItems: [URLQueryItem]? { nil }
}

// MARK: - Tests

@Suite(.timeLimit(.minutes(1))) struct SeedSamplesTinyAPITests {
    typealias User = TinyAPISeed.User
    typealias CreateUserRequest = TinyAPISeed.CreateUserRequest
    typealias UserEndpoint = TinyAPISeed.UserEndpoint
    typealias UserListFeature = TinyAPISeed.UserListFeature
    typealias UserListView = TinyAPISeed.UserListView
    typealias APIClientDependency = TinyAPISeed.APIClientDependency

    static let john = User(id: 1, name: "John Doe", email: "john@example.com")

    /// A test server with the README's routes, its base URL set as `server` while `body` runs.
    static func withServer(
        isolation: isolated (any Actor)? = #isolation, _ body: (TestServer) async throws -> Void
    ) async throws {
        let testServer = try await TestServer.start()
        defer { testServer.stop() }
        await testServer.route(
            "GET /users", response: .json(200, #"[{"id":1,"name":"John Doe","email":"john@example.com"}]"#))
        await testServer.route("POST /users") { request in .json(201, #"{"id":999,"# + request.bodyText.dropFirst()) }
        await testServer.route(
            "GET /users/1", response: .json(200, #"{"id":1,"name":"John Doe","email":"john@example.com"}"#))
        await testServer.route("PUT /users/1") { request in .json(200, request.bodyText) }
        await testServer.route("DELETE /users/1", response: .empty(204))
        await testServer.route("GET /posts", response: .json(200, #"[{"id":1,"title":"Hello"}]"#))
        try await TinyAPISeed.$server.withValue(testServer.baseURL.absoluteString) { try await body(testServer) }
    }

    @Test func theClient() async throws {
        try await Self.withServer { testServer in
            let apiClient = TinyAPIClient()
            // Simple GET request
            let users = try await apiClient.get(
                from: server,  // Coming from tinyAPI: test only, the host is the test server
                path: "/users",
                as: [User].self
            )
            // POST with body
            let newUser = try await apiClient.post(
                to: server,  // Coming from tinyAPI: test only, the host is the test server
                path: "/users",
                body: CreateUserRequest(name: "John", email: "john@example.com"),
                as: User.self
            )

            #expect(users == [Self.john])
            #expect(newUser == User(id: 999, name: "John", email: "john@example.com"))
            #expect(testServer.requests.last?.header("Content-Type") == "application/json")
        }
    }

    @Test func theEndpointEnum() async throws {
        try await Self.withServer { testServer in
            let client = TinyAPIClient.live
            #expect(try await client.request(UserEndpoint.list, as: [User].self) == [Self.john])
            #expect(try await client.request(UserEndpoint.detail(id: 1), as: User.self) == Self.john)
            let created = try await client.request(
                UserEndpoint.create(CreateUserRequest(name: "Ann", email: "ann@example.com")), as: User.self)
            #expect(created == User(id: 999, name: "Ann", email: "ann@example.com"))
            let renamed = User(id: 1, name: "Johnny", email: "john@example.com")
            #expect(try await client.request(UserEndpoint.update(id: 1, user: renamed), as: User.self) == renamed)
            #expect(try await client.requestData(UserEndpoint.delete(id: 1)).isEmpty)

            let seen = testServer.requests.map { "\($0.method) \($0.path) \($0.header("Content-Type") ?? "-")" }
            #expect(
                seen == [
                    "GET /users -", "GET /users/1 -", "POST /users application/json", "PUT /users/1 application/json",
                    "DELETE /users/1 -",
                ])
        }
    }

    @MainActor @Test func theUserListFeatureInAStore() async throws {
        try await Self.withServer { _ in
            let store = Store<UserListFeature>()
            await store.send(.loadUsers).finish()
            #expect(store.state.users == .success([Self.john]))
            store.send(.selectUser(Self.john))
            #expect(store.state.selectedUser == Self.john)
        }
    }

    @Test func theUserListFeatureReportsAnHTTPError() async throws {
        let testServer = try await TestServer.start()
        defer { testServer.stop() }
        await testServer.route("GET /users", response: .json(503, #"{"error":"maintenance"}"#))
        try await TinyAPISeed.$server.withValue(testServer.baseURL.absoluteString) {
            let action = try await UserListFeature.effect(for: .loadUsers, state: UserListFeature.initialState)
            guard case .usersResponse(.failure(let error)) = action else {
                Issue.record("expected a failure, got \(String(describing: action))")
                return
            }
            #expect(error == .httpError(503))
            #expect(error.localizedDescription == "HTTP Error: 503")
            var state = UserListFeature.initialState
            try UserListFeature.reducer(state: &state, action: .usersResponse(.failure(error)))
            #expect(state.users == .failure("HTTP Error: 503"))
        }
    }

    @MainActor @Test func theViewLoadsShowsAndSelects() async throws {
        try await Self.withServer { _ in
            let store = Store<UserListFeature>()
            let view = UserListView(store: store)
            #expect(render(view).texts == ["Users", "Tap to load users"])

            #expect(render(view).tapButton("Load"))
            #expect(render(view).progressViews == ["Loading users..."])
            for await state in store.states where !state.users.isLoading { break }  // test: the effect ends

            #expect(render(view).texts == ["Users", "John Doe", "john@example.com"])
            #expect(render(view).tap(showing: "John Doe"))
            #expect(store.state.selectedUser == Self.john)
        }
    }

    @MainActor @Test func previews() {
        // Coming from tinyAPI: `#Preview` is Xcode's macro; the test renders the same closures with `preview(_:_:)`.
        let loading = preview("Loading") {
            UserListView(store: .preview(UserListFeature.State(users: .loading)))
        }
        let success = preview("Success") {
            let users = [
                User(id: 1, name: "Preview User", email: "preview@example.com")
            ]
            UserListView(store: .preview(UserListFeature.State(users: .success(users))))
        }
        let error = preview("Error") {
            UserListView(store: .preview(UserListFeature.State(users: .failure("Network error"))))
        }

        #expect(loading.progressViews == ["Loading users..."])
        #expect(success.texts == ["Users", "Preview User", "preview@example.com"])
        #expect(error.texts == ["Users", "Error: Network error"])
    }

    /// `#Preview(name) { … }`, rendered.
    @MainActor func preview(_ name: String, @ViewBuilder _ content: () -> ViewGroup) -> [Rendered] {
        render(content())
    }

    @Test func mockFilesStandInForTheServer() async throws {
        let mockDirectory = try Self.writeMockFiles()  // test
        defer { try? FileManager.default.removeItem(at: mockDirectory) }  // test
        try await TinyAPISeed.$server.withValue("https://api.example.com") {
            // Mock client maps endpoints to JSON files:
            // GET /users → mock_get_users.json
            // POST /users → mock_post_users.json
            // GET /users/1 → mock_get_users_1.json
            // Coming from tinyAPI: the files are in a directory, not the app bundle (a test has none).
            let mockClient = MockTinyAPIClient(files: MockFiles(directory: mockDirectory))
            let users = try await mockClient.request(UserEndpoint.list, as: [User].self)

            #expect(users.map(\.name) == ["John Doe", "Jane Smith"])
            let created = try await mockClient.request(
                UserEndpoint.create(CreateUserRequest(name: "New User", email: "new@example.com")), as: User.self)
            #expect(created.id == 999)
        }
    }

    /// The README's mock_get_users.json and mock_post_users.json, in a new directory.
    static func writeMockFiles() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let users = """
            [
              {
                "id": 1,
                "name": "John Doe",
                "email": "john@example.com"
              },
              {
                "id": 2,
                "name": "Jane Smith",
                "email": "jane@example.com"
              }
            ]
            """
        let newUser = """
            {
              "id": 999,
              "name": "New User",
              "email": "new@example.com"
            }
            """
        try Data(users.utf8).write(to: directory.appendingPathComponent("mock_get_users.json"))
        try Data(newUser.utf8).write(to: directory.appendingPathComponent("mock_post_users.json"))
        return directory
    }

    @Test func dependencySwitching() async throws {
        #expect(APIClientDependency.live.client is TinyAPIClient)
        for dependency in [APIClientDependency.mock, .preview, .testing] {
            #expect(dependency.client is MockTinyAPIClient)
        }
        // The presets read the app bundle, as tinyAPI's do: a test bundle has no mock files, and the error says
        // which file was looked for.
        let error = try await #require(throws: TinyAPIError.self) {
            try await APIClientDependency.testing.client.request(UserEndpoint.list, as: [User].self)
        }
        #expect(error.localizedDescription.contains("mock_get_users.json"))
    }

    @Test func thePostsFeature() async throws {
        try await Self.withServer { _ in
            let action = try await TinyAPISeed.PostsFeature.effect(for: .loadPosts, state: .init())
            guard case .postsResponse(.success(let posts)) = action else {
                Issue.record("expected posts, got \(String(describing: action))")
                return
            }
            #expect(posts == [TinyAPISeed.Post(id: 1, title: "Hello")])
        }
    }

    @Test func anUnreachableServerIsANetworkError() async throws {
        let testServer = try await TestServer.start()
        let base = testServer.baseURL.absoluteString
        await testServer.stopAndWait()
        let error = try await #require(throws: TinyAPIError.self) {
            try await TinyAPIClient.live.get(from: base, path: "/users", as: [User].self)
        }
        guard case .networkError = error.kind else {
            Issue.record("expected networkError, got \(error)")
            return
        }
        #expect((error.underlyingError as? HTTPTransportError)?.code == .cannotConnect)
    }
}

/// "Testing", under XCTest as the README writes it.
final class SeedSamplesTinyAPIXCTests: XCTestCase {
    typealias User = TinyAPISeed.User
    typealias UserListFeature = TinyAPISeed.UserListFeature

    func testUserLoading() async throws {
        let feature = UserListFeature.self
        let mockClient = MockTinyAPIClient.testing

        // Test loading state
        var state = feature.initialState
        try feature.reducer(state: &state, action: .loadUsers)
        XCTAssertEqual(state.users, .loading)

        // Test success response
        let users = [User(id: 1, name: "Test", email: "test@example.com")]
        try feature.reducer(state: &state, action: .usersResponse(.success(users)))
        XCTAssertEqual(state.users, .success(users))
        _ = mockClient  // test: the README declares it and uses it nowhere
    }

    func testRealAPIIntegration() async throws {
        let testServer = try await TestServer.start()  // test
        defer { testServer.stop() }  // test
        await testServer.route("GET /users", response: .json(200, #"[{"id":1,"name":"A","email":"a@example.com"}]"#))
        try await TinyAPISeed.$server.withValue(testServer.baseURL.absoluteString) {  // test
            let client = TinyAPIClient.live
            let users = try await client.get(
                from: server,  // Coming from tinyAPI: test only, the host is the test server
                path: "/users",
                as: [User].self
            )
            XCTAssertFalse(users.isEmpty)
        }
    }
}
