// The client and endpoint samples of tinyAPI's README (seeds/000), compiled against `import TinyKit` and run
// against the in-process test server. (Its Feature/Store, RequestState and mock-file samples are TinyStore's,
// TinyRequestState's and TinyMocks' to cover.) Differences from the README, each forced by the test setting:
// - base URLs come from the test server: `"https://api.example.com"` becomes `TinyAPISeed.server` (a task-local set
//   per test), and `TinyAPISeed.server` replaces jsonplaceholder.typicode.com; call shapes are unchanged;
// - XCTest's assertions are Swift Testing's `#expect`.
import Foundation
import Testing
import TinyKit
import TinyKitTestServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The README's declarations, namespaced so they do not clash with other seeds' `User`.
enum TinyAPISeed {
    /// The test server's base URL, standing in for the README's hosts.
    @TaskLocal static var server = ""

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

    enum UserEndpoint {
        case list
        case create(CreateUserRequest)
        case detail(id: Int)
        case update(id: Int, user: User)
        case delete(id: Int)
    }

    struct APIClientDependency {
        let client: any APIClientProtocol

        static let live = APIClientDependency(client: TinyAPIClient.live)
        static let mock = APIClientDependency(client: MockTinyAPIClient.demo)
        static let preview = APIClientDependency(client: MockTinyAPIClient.preview)
        static let testing = APIClientDependency(client: MockTinyAPIClient.testing)
    }

    /// The effect of the README's `UserListFeature` (its reducer and state are TinyStore's samples).
    enum UserListFeature {
        enum Action: Sendable {
            case loadUsers
            case usersResponse(Result<[User], TinyAPIError>)
        }

        static func effect(for action: Action) async throws -> Action? {
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

    /// The effect of the README's `PostsFeature`.
    enum PostsFeature {
        enum Action: Sendable {
            case loadPosts
            case postsResponse(Result<[Post], TinyAPIError>)
        }

        static func effect(for action: Action) async throws -> Action? {
            switch action {
            case .loadPosts:
                do {
                    let posts = try await APIClientDependency.live.client.get(
                        from: TinyAPISeed.server,
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

extension TinyAPISeed.UserEndpoint: TinyAPIEndpoint {
    var baseURL: String { TinyAPISeed.server }
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
        // The README's `try?`, kept as written: it compiles against the protocol's throwing `body`, but drops an
        // encoding failure. Write `var body: Data? { get throws }` with `try`, or use
        // `TinyAPIClient.post(to:path:body:as:)`, to have it reported.
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

@Suite struct SeedSamplesTinyAPITests {
    typealias Seed = TinyAPISeed
    typealias User = TinyAPISeed.User
    typealias CreateUserRequest = TinyAPISeed.CreateUserRequest
    typealias UserEndpoint = TinyAPISeed.UserEndpoint

    static let users = #"[{"id":1,"name":"John Doe","email":"john@example.com"}]"#

    /// A test server with the README's routes.
    static func startServer() async throws -> TestServer {
        let server = try await TestServer.start()
        await server.route("GET /users", response: .json(200, users))
        await server.route("POST /users") { request in .json(201, #"{"id":999,"# + request.bodyText.dropFirst()) }
        await server.route(
            "GET /users/1", response: .json(200, #"{"id":1,"name":"John Doe","email":"john@example.com"}"#))
        await server.route("PUT /users/1") { request in .json(200, request.bodyText) }
        await server.route("DELETE /users/1", response: .empty(204))
        await server.route("GET /posts", response: .json(200, #"[{"id":1,"title":"Hello"}]"#))
        return server
    }

    @Test func theClientsConveniences() async throws {
        let server = try await Self.startServer()
        defer { server.stop() }
        try await Seed.$server.withValue(server.baseURL.absoluteString) {
            let apiClient = TinyAPIClient()
            // Simple GET request
            let users = try await apiClient.get(
                from: Seed.server,
                path: "/users",
                as: [User].self
            )
            // POST with body
            let newUser = try await apiClient.post(
                to: Seed.server,
                path: "/users",
                body: CreateUserRequest(name: "John", email: "john@example.com"),
                as: User.self
            )
            #expect(users == [User(id: 1, name: "John Doe", email: "john@example.com")])
            #expect(newUser == User(id: 999, name: "John", email: "john@example.com"))
            #expect(server.requests.last?.header("Content-Type") == "application/json")
        }
    }

    @Test func endpointEnumCases() async throws {
        let server = try await Self.startServer()
        defer { server.stop() }
        try await Seed.$server.withValue(server.baseURL.absoluteString) {
            let client = TinyAPIClient.live
            let john = User(id: 1, name: "John Doe", email: "john@example.com")
            #expect(try await client.request(UserEndpoint.list, as: [User].self) == [john])
            #expect(try await client.request(UserEndpoint.detail(id: 1), as: User.self) == john)
            let created = try await client.request(
                UserEndpoint.create(CreateUserRequest(name: "Ann", email: "ann@example.com")), as: User.self)
            #expect(created.id == 999 && created.name == "Ann")
            let renamed = User(id: 1, name: "Johnny", email: "john@example.com")
            #expect(try await client.request(UserEndpoint.update(id: 1, user: renamed), as: User.self) == renamed)
            #expect(try await client.requestData(UserEndpoint.delete(id: 1)).isEmpty)

            let seen = server.requests.map { "\($0.method) \($0.path) \($0.header("Content-Type") ?? "-")" }
            #expect(
                seen == [
                    "GET /users -", "GET /users/1 -", "POST /users application/json", "PUT /users/1 application/json",
                    "DELETE /users/1 -",
                ])
        }
    }

    @Test func userListFeatureEffect() async throws {
        let server = try await Self.startServer()
        defer { server.stop() }
        try await Seed.$server.withValue(server.baseURL.absoluteString) {
            let action = try await Seed.UserListFeature.effect(for: .loadUsers)
            guard case .usersResponse(.success(let users)) = action else {
                Issue.record("expected users, got \(String(describing: action))")
                return
            }
            #expect(users.map(\.name) == ["John Doe"])
        }
    }

    @Test func userListFeatureEffectReportsAnHTTPError() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /users", response: .json(503, #"{"error":"maintenance"}"#))
        try await Seed.$server.withValue(server.baseURL.absoluteString) {
            let action = try await Seed.UserListFeature.effect(for: .loadUsers)
            guard case .usersResponse(.failure(let error)) = action else {
                Issue.record("expected a failure, got \(String(describing: action))")
                return
            }
            #expect(error == .httpError(503))
            #expect(error.localizedDescription == "HTTP Error: 503")
            let evidence = try #require(error.underlyingError as? HTTPTransportError)
            #expect(evidence.body.map { String(decoding: $0, as: UTF8.self) } == #"{"error":"maintenance"}"#)
        }
    }

    @Test func postsFeatureEffect() async throws {
        let server = try await Self.startServer()
        defer { server.stop() }
        try await Seed.$server.withValue(server.baseURL.absoluteString) {
            let action = try await Seed.PostsFeature.effect(for: .loadPosts)
            guard case .postsResponse(.success(let posts)) = action else {
                Issue.record("expected posts, got \(String(describing: action))")
                return
            }
            #expect(posts == [Seed.Post(id: 1, title: "Hello")])
        }
    }

    @Test func realAPIIntegration() async throws {
        let server = try await Self.startServer()
        defer { server.stop() }
        let client = TinyAPIClient.live
        let users = try await client.get(
            from: server.baseURL.absoluteString,
            path: "/users",
            as: [User].self
        )
        #expect(!users.isEmpty)
    }

    @Test func anUnreachableServerIsANetworkError() async throws {
        let server = try await TestServer.start()
        let base = server.baseURL.absoluteString
        await server.stopAndWait()
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
