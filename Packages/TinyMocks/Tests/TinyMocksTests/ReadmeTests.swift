import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport

@testable import TinyMocks

// The README's snippets, compiled and run (every line of its ```swift blocks appears here).

struct APIClientDependency {
    let client: any APIClientProtocol

    static let live = APIClientDependency(client: TinyAPIClient.live)
    static let mock = APIClientDependency(client: MockTinyAPIClient.demo)
    static let preview = APIClientDependency(client: MockTinyAPIClient.preview)
    static let testing = APIClientDependency(client: MockTinyAPIClient.testing)
}

@Suite(.timeLimit(.minutes(1))) struct ReadmeTests {
    @Test func quickStart() async throws {
        // GET /users → mock_get_users.json, POST /users → mock_post_users.json, GET /users/1 → mock_get_users_1.json
        let mock = MockTransport(files: .bundle(.module, subdirectory: "Fixtures"))

        // Routes answer before files: a status, headers and a body, an error, or a sequence of answers.
        mock.register(.post, "/users", try .json(User(id: 3, name: "Ada", email: "ada@example.com"), status: 201))
        mock.register(.get, "/offline", .failure(URLError(.notConnectedToInternet)))
        mock.register(.get, "/flaky", .status(503), .status(200))

        // Any client on top: TinyAPIClient, Endpoint loading, StatefulEndpoint, Store effects.
        let client = TinyAPIClient(transport: mock)
        let users = try await client.request(UserEndpoint.list, as: [User].self)
        let ada = CreateUserRequest(name: "Ada", email: "ada@example.com")
        let created = try await client.request(UserEndpoint.create(ada), as: User.self)

        // Every request, in order, as the URLRequest it was: method, URL, headers, body.
        #expect(mock.requests.map(\.method) == [.get, .post])
        #expect(mock.requests.last?.value(forHTTPHeaderField: "Content-Type") == "application/json")

        #expect(users.count == 2)
        #expect(created.id == 3)
        let offline = try await #require(throws: TinyAPIError.self) {
            try await client.get(from: "https://api.example.com", path: "/offline", as: [User].self)
        }
        #expect((offline.underlyingError as? HTTPTransportError)?.code == .cannotConnect)
        await #expect(throws: TinyAPIError.httpError(503)) { try await client.requestData(Flaky()) }
        #expect(try await client.requestData(Flaky()).isEmpty)
    }

    /// The `/flaky` route of the quick start: the first call fails with 503, the next succeeds.
    struct Flaky: TinyAPIEndpoint {
        var baseURL: String { "https://api.example.com" }
        var path: String { "/flaky" }
        var method: HTTPMethod { .get }
    }

    @Test func mockClientAndDependencies() async throws {
        let mockClient = MockTinyAPIClient(files: .bundle(.module, subdirectory: "Fixtures"))
        let user = try await mockClient.request(UserEndpoint.detail(id: 1), as: User.self)

        #expect(user.name == "John Doe")
        #expect(APIClientDependency.preview.client is MockTinyAPIClient)
        #expect(APIClientDependency.mock.client is MockTinyAPIClient)
    }

    @Test func delays() async throws {
        let testClock = RecordingClock()
        let demo = MockTinyAPIClient(files: .bundle(.module, subdirectory: "Fixtures"), delay: .milliseconds(800))
        let search = MockTransport(delay: .milliseconds(200), clock: testClock)
        search.register(.get, "/search", query: ["q": "swift"], delay: .seconds(2), .json("[]"))

        #expect(demo.transport.delay == .milliseconds(800))
        _ = try await search.send(URLRequest(url: try #require(URL(string: "https://h/search?q=swift"))))
        #expect(testClock.sleeps == [.seconds(2)])
    }
}
