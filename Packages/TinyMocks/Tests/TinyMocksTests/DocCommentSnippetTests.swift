import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport
import TinyMocks

// Every ```swift block of TinyMocks' DocC comments and Documentation.docc articles, compiled here (the repository's
// other doc snippets are in Tests/TinyKitIntegrationTests/DocCommentSnippetTests.swift, which also checks that each
// block's lines appear in one of these files, in order). Each snippet is copied verbatim into a function named after
// its file and line, with only the context a reader supplies around it marked `// context`. Here `.module` is this
// test target's bundle, whose Fixtures folder holds the files the snippets name.

/// The types the snippets take for granted.
enum MocksDocSnippets {
    struct User: Codable, Sendable, Equatable {
        var id: Int
        var name: String
    }
    enum UserEndpoint: TinyAPIEndpoint {
        case list
        var baseURL: String { "https://api.example.com" }
        var path: String { "/users" }
        var method: HTTPMethod { .GET }
    }
}

// MARK: TinyMocks

extension MocksDocSnippets {
    // Packages/TinyMocks/Sources/TinyMocks/MockError.swift:50
    static func mockError(error: any Error) -> MockError? {
        let mockError = MockError(error)  // error thrown by MockTransport or MockTinyAPIClient
        return mockError  // context
    }

    // Packages/TinyMocks/Sources/TinyMocks/MockFiles.swift:25
    static func mockFiles() {
        let fixtures = MockFiles.bundle(.module, subdirectory: "Fixtures")  // a test target's resources
        let app = MockFiles.bundle(.main)  // the app bundle
        let folder = MockFiles(directory: URL(fileURLWithPath: "/tmp/mocks"))
        _ = (fixtures, app, folder)
    }

    // Packages/TinyMocks/Sources/TinyMocks/MockResponse.swift:6
    static func mockResponses(mock: MockTransport) throws {
        mock.register(.get, "/users", try .json([User(id: 1, name: "Ada")]))
        mock.register(.delete, "/users/1", .status(204))
        mock.register(.get, "/offline", .failure(URLError(.notConnectedToInternet)))
    }

    // Packages/TinyMocks/Sources/TinyMocks/MockTinyAPIClient.swift:7
    static func mockTinyAPIClient() async throws {
        // GET /users → mock_get_users.json, POST /users → mock_post_users.json, GET /users/1 → mock_get_users_1.json
        let mockClient = MockTinyAPIClient()
        let users = try await mockClient.request(UserEndpoint.list, as: [User].self)
        _ = users
    }

    // Packages/TinyMocks/Sources/TinyMocks/MockTinyAPIClient.swift:18
    static func mockTinyAPIClientFiles() {
        let client = MockTinyAPIClient(files: .bundle(.module, subdirectory: "Fixtures"))
        _ = client
    }

    // Packages/TinyMocks/Sources/TinyMocks/MockTransport.swift:7
    static func mockTransport() async throws {
        let mock = MockTransport(files: .bundle(.module, subdirectory: "Fixtures"))
        mock.register(.post, "/users", .status(201))
        let (body, response) = try await mock.send(URLRequest(url: URL(fileURLWithPath: "/users")))
        _ = (body, response)
    }

    // Packages/TinyMocks/Sources/TinyMocks/MockTransport.swift:130
    static func mockRegister(mock: MockTransport, users: [User]) throws {
        mock.register(.get, "/users", try .json(users))
        mock.register(.get, "/flaky", .status(503), .status(503), .json("[]"))
        mock.register(.get, "/search", query: ["q": "swift"], delay: .milliseconds(300), .json("[]"))
    }

    // Packages/TinyMocks/Sources/TinyMocks/Documentation.docc/GettingStarted.md:11
    static func mocksGettingStarted() async throws {
        let mock = MockTransport(files: .bundle(.module, subdirectory: "Fixtures"))
        let client = TinyAPIClient(transport: mock)
        let users = try await client.request(UserEndpoint.list, as: [User].self)
        _ = users
    }

    // Packages/TinyMocks/Sources/TinyMocks/Documentation.docc/GettingStarted.md:19
    static func mocksPreview() {
        let mockClient = MockTinyAPIClient.preview
        _ = mockClient
    }

    // Packages/TinyMocks/Sources/TinyMocks/Documentation.docc/GettingStarted.md:32
    static func mocksRegister(mock: MockTransport, newUser: User) throws {
        mock.register(.post, "/users", try .json(newUser, status: 201))
        mock.register(.get, "/offline", .failure(URLError(.notConnectedToInternet)))
        mock.register(.get, "/flaky", .status(503), .status(503), .json("[]"))
        mock.register(.get, "/search", query: ["q": "swift"], delay: .seconds(2), .json("[]"))
        mock.register(.get, "/search?q=tiny", .json("[]"))  // a query in the path matches as `query:` does
    }

    // Packages/TinyMocks/Sources/TinyMocks/Documentation.docc/GettingStarted.md:50
    static func mocksDelay(fixtures: MockFiles, testClock: ContinuousClock) {
        let demo = MockTinyAPIClient(files: fixtures, delay: .milliseconds(800))
        let onTestClock = MockTransport(files: fixtures, delay: .milliseconds(800), clock: testClock)
        _ = (demo, onTestClock)
    }

    // Packages/TinyMocks/Sources/TinyMocks/Documentation.docc/GettingStarted.md:65
    static func mocksRecording(mock: MockTransport, expectedBody: Data) throws {
        let sent = try #require(mock.requests.last)
        #expect(sent.method == .post)
        #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer token")
        #expect(sent.httpBody == expectedBody)
    }
}

/// Runs the snippets against this target's Fixtures, checking what their comments say.
@Suite(.timeLimit(.minutes(1))) struct DocCommentSnippetTests {
    typealias User = MocksDocSnippets.User

    /// MockTinyAPIClient.swift:7: "GET /users → mock_get_users.json, POST /users → mock_post_users.json,
    /// GET /users/1 → mock_get_users_1.json", under a base URL with a path (`/v1`), which is taken off.
    @Test func filesAreNamedAfterTheMethodAndPath() async throws {
        let client = MockTinyAPIClient(files: .bundle(.module, subdirectory: "Fixtures"))
        let base = "https://api.example.com/v1"
        let users = try await client.get(from: base, path: "/users", as: [User].self)
        #expect(users.map(\.id) == [1, 2])
        let created = try await client.post(to: base, path: "/users", body: ["name": "New User"], as: User.self)
        #expect(created.id == 999)
        let user = try await client.get(from: base, path: "/users/1", as: User.self)
        #expect(user.name == "John Doe")
    }

    /// MockTransport.swift:7: a registered route and the files answer side by side.
    @Test func theMockTransportSnippetReadsTheFile() async throws {
        let mock = MockTransport(files: .bundle(.module, subdirectory: "Fixtures"))
        mock.register(.post, "/users", .status(201))
        let (body, response) = try await mock.send(URLRequest(url: URL(fileURLWithPath: "/users")))
        #expect(response.statusCode == 200)
        #expect(try JSONDecoder().decode([User].self, from: body).count == 2)
        var post = URLRequest(url: URL(fileURLWithPath: "/users"))
        post.httpMethod = "POST"
        #expect(try await mock.send(post).1.statusCode == 201)
    }

    /// Documentation.docc/GettingStarted.md:32: "a query in the path matches as `query:` does".
    @Test func aQueryInThePathMatchesAsQueryDoes() async throws {
        let mock = MockTransport()
        mock.register(.get, "/search?q=tiny", .json(#"["path"]"#))
        mock.register(.get, "/search", query: ["q": "swift"], .json(#"["query"]"#))
        for (query, expected) in [("tiny", "path"), ("swift", "query")] {
            let url = try #require(URL(string: "https://api.example.com/search?q=\(query)&page=2"))
            let (body, _) = try await mock.send(URLRequest(url: url))
            #expect(String(decoding: body, as: UTF8.self) == #"["\#(expected)"]"#)
        }
    }

    /// Documentation.docc/GettingStarted.md:11: the mock transport under the live client, from the files.
    @Test func theLiveClientOverTheMockReadsTheFiles() async throws {
        try await MocksDocSnippets.mocksGettingStarted()
    }
}
