import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyEndpoint
@testable import TinyMocks

// The seed's (tinyAPI's) endpoint and mock examples, as written there (its `APIClientDependency` is in ReadmeTests).

struct CreateUserRequest: Codable, Sendable {
    let name: String
    let email: String
}

enum UserEndpoint {
    case list
    case create(CreateUserRequest)
    case detail(id: Int)
    case update(id: Int, user: User)
    case delete(id: Int)
}

extension UserEndpoint: TinyAPIEndpoint {
    var baseURL: String { "https://api.example.com" }
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
    // The seed's code: tinyAPI's `body` cannot throw, so it drops encoding failures. TinyMocks never does.
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

@Suite(.timeLimit(.minutes(1))) struct SeedExampleTests {
    /// The seed's mock client, reading this test target's files instead of the app bundle.
    let mockClient = MockTinyAPIClient(files: fixtures)

    @Test func listsUsersFromMockGetUsers() async throws {
        let users = try await mockClient.request(UserEndpoint.list, as: [User].self)
        #expect(
            users == [
                User(id: 1, name: "John Doe", email: "john@example.com"),
                User(id: 2, name: "Jane Smith", email: "jane@example.com"),
            ])
    }

    @Test func createsAUserFromMockPostUsers() async throws {
        let request = CreateUserRequest(name: "John", email: "john@example.com")
        let user = try await mockClient.request(UserEndpoint.create(request), as: User.self)
        #expect(user == User(id: 999, name: "New User", email: "new@example.com"))
        let sent = try #require(mockClient.transport.requests.first)
        #expect(sent.method == .post)
        #expect(try JSONDecoder().decode(CreateUserRequest.self, from: sent.httpBody ?? Data()).name == "John")
        #expect(sent.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func readsOneUserFromMockGetUsers1() async throws {
        let user = try await mockClient.request(UserEndpoint.detail(id: 1), as: User.self)
        #expect(user.name == "John Doe")
    }

    @Test func theConveniencesUseTheSameFiles() async throws {
        let users = try await mockClient.get(from: "https://api.example.com", path: "/users", as: [User].self)
        #expect(users.count == 2)
        let created = try await mockClient.post(
            to: "https://api.example.com", path: "/users",
            body: CreateUserRequest(name: "John", email: "john@example.com"), as: User.self)
        #expect(created.id == 999)
        let data = try await mockClient.requestData(UserEndpoint.detail(id: 1))
        #expect(try JSONDecoder().decode(User.self, from: data).id == 1)
    }

    @Test func requestDataTakesTheBaseURLPathOffToo() async throws {
        let endpoint = AdHocAPIEndpoint(baseURL: "https://api.example.com/api/v4", path: "/users/1", method: .get)
        let data = try await mockClient.requestData(endpoint)
        #expect(try JSONDecoder().decode(User.self, from: data).id == 1)
    }

    /// An encoded slash in the base URL's path is one segment, as in the request's path (GitLab's project ids).
    @Test func aBaseURLPathWithAnEncodedSlashIsTakenOff() async throws {
        let base = "https://gitlab.example.com/api/v4/projects/diaspora%2Fdiaspora"
        let users = try await mockClient.get(from: base, path: "/users", as: [User].self)
        #expect(users.count == 2)
    }

    @Test func theInjectedDecoderAndEncoderAreUsed() async throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        struct Profile: Codable, Equatable, Sendable { var displayName: String }
        let clients = [
            MockTinyAPIClient(transport: MockTransport(), decoder: decoder, encoder: encoder),
            MockTinyAPIClient(files: fixtures, decoder: decoder, encoder: encoder),
        ]
        for client in clients {
            client.transport.register(.put, "/me", .json(#"{"display_name":"Ada"}"#))
            let profile = try await client.send(
                .put, to: "https://api.example.com", path: "/me", body: Profile(displayName: "Ada L"),
                as: Profile.self)
            #expect(profile == Profile(displayName: "Ada"))
            #expect(client.transport.requests.first?.httpBody == Data(#"{"display_name":"Ada L"}"#.utf8))
        }
    }

    @Test func aBaseURLPathIsNotPartOfTheFileName() async throws {
        let users = try await mockClient.get(from: "https://api.example.com/api/v4/", path: "/users", as: [User].self)
        #expect(users.count == 2)
        #expect(mockClient.transport.requests.first?.url?.path == "/api/v4/users")
    }

    /// One client's requests share what it built (the same call again is built once) and each goes through the view
    /// of the mock for its own base URL's path.
    @Test func repeatedCallsAndOtherBasePathsGoThroughOneClient() async throws {
        for base in ["https://api.example.com", "https://api.example.com", "https://api.example.com/api/v4/"] {
            let users = try await mockClient.get(from: base, path: "/users", as: [User].self)
            #expect(users.count == 2)
        }
        #expect(mockClient.transport.requests.map { $0.url?.path } == ["/users", "/users", "/api/v4/users"])
        // One request built per base URL, kept by the one client.
        #expect(mockClient.client.requests.withLock { $0.count } == 2)
    }

    @Test func aMissingMockIsATinyAPIErrorThatSaysWhereItLooked() async throws {
        let error = try await #require(throws: TinyAPIError.self) {
            try await mockClient.request(UserEndpoint.delete(id: 5), as: User.self)
        }
        guard case .networkError(let message) = error.kind else {
            Issue.record("expected networkError, got \(error)")
            return
        }
        #expect(message.contains("mock_delete_users_5.json"))
        #expect(message.contains(fixtures.directory.path))
        let mockError = try #require(MockError(error))
        #expect(
            mockError
                == .noMock(
                    method: .delete, path: "/users/5", lookedFor: "mock_delete_users_5.json",
                    in: fixtures.directory.path, routes: []))
    }

    @Test func routesAndStatusesBehaveAsWithTheLiveClient() async throws {
        mockClient.transport.register(.get, "/users/2", .status(404, body: Data(#"{"error":"gone"}"#.utf8)))
        mockClient.transport.register(.delete, "/users/1", .status(204))
        await #expect(throws: TinyAPIError.httpError(404)) {
            try await mockClient.request(UserEndpoint.detail(id: 2), as: User.self)
        }
        let deleted = try await mockClient.request(UserEndpoint.delete(id: 1), as: EmptyResponse.self)
        #expect(deleted == EmptyResponse())
        await #expect(throws: TinyAPIError.noData) {
            try await mockClient.request(UserEndpoint.delete(id: 1), as: User.self)
        }
    }

    @Test func theDependencyPatternWorksAsWritten() async throws {
        #expect(APIClientDependency.live.client is TinyAPIClient)
        #expect(APIClientDependency.testing.client is MockTinyAPIClient)
        // The presets read the app bundle; under `swift test`, Bundle.main is the test runner, with no mocks: the
        // error says exactly where it looked.
        let error = try await #require(throws: (any Error).self, "Bundle.main has no mock files under swift test") {
            try await APIClientDependency.testing.client.request(UserEndpoint.list, as: [User].self)
        }
        let mockError = try #require(MockError(error))
        guard case .noMock(_, _, let file, let directory, _) = mockError else {
            Issue.record("expected noMock, got \(mockError)")
            return
        }
        #expect(file == "mock_get_users.json")
        #expect(directory == MockFiles.bundle(.main).directory.path)
    }

    @Test func presetsHaveTheirDelaysAndAreFreshOnEachAccess() {
        #expect(MockTinyAPIClient.demo.transport.delay == .milliseconds(800))
        #expect(MockTinyAPIClient.preview.transport.delay == .milliseconds(200))
        #expect(MockTinyAPIClient.testing.transport.delay == .zero)
        #expect(MockTinyAPIClient().transport.delay == .zero)
        #expect(MockTinyAPIClient.demo.transport !== MockTinyAPIClient.demo.transport)
        #expect(MockTinyAPIClient(files: fixtures).transport.files?.directory == fixtures.directory)
        let demoOnFixtures = MockTinyAPIClient(files: fixtures, delay: .milliseconds(800))
        #expect(demoOnFixtures.transport.delay == .milliseconds(800))
        #expect(demoOnFixtures.transport.files?.directory == fixtures.directory)
    }

    @Test func encodingFailuresSurface() throws {
        #expect(throws: TinyAPIError.self) { try mockClient.encode(body: Double.nan) }
    }
}
