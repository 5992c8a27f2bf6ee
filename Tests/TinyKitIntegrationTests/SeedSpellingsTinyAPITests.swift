// The spellings tinyAPI's README (seeds/000) names or implies outside its code samples, as
// Docs/ComingFromTinyAPI.md's "Other spellings the README names" gives them in TinyKit: one test per row that has a
// TinyKit spelling, so the table cannot rot. The samples themselves are SeedSamplesTinyAPITests'.
import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyKit
import TinyKitTestServer

@Suite(.timeLimit(.minutes(1))) struct SeedSpellingsTinyAPITests {
    struct User: Codable, Sendable, Equatable {
        var id: Int
        var name: String
    }

    enum UserEndpoint: TinyAPIEndpoint {
        case list
        case update(id: Int)

        var baseURL: String { "https://api.example.com" }
        var path: String {
            switch self {
            case .list: "/users"
            case .update(let id): "/users/\(id)"
            }
        }
        var method: HTTPMethod {
            switch self {
            case .list: .GET
            case .update: .PUT
            }
        }
    }

    /// `RequestState.data` → `value`.
    @Test func requestStateDataIsValue() {
        let users: RequestState<[User]> = .success([User(id: 1, name: "Ann")])
        #expect(users.value == [User(id: 1, name: "Ann")])
        #expect(RequestState<[User]>.loading.value == nil)
        #expect(RequestState<[User]>.failure("Network error").value == nil)
    }

    /// `RequestState.error` (a `String?`) → `error` (a `RequestError?`), its text `error?.message`.
    @Test func requestStateErrorIsARequestError() {
        let failed: RequestState<[User]> = .failure("Network error")
        let message: String? = failed.error?.message
        #expect(message == "Network error")
        #expect(failed.error.map { "\($0)" } == "Network error")
        #expect(RequestState<[User]>.idle.error == nil)
        #expect(RequestState<[User]>.success([]).error == nil)
    }

    /// `RequestState.isLoading` → the same.
    @Test func requestStateIsLoading() {
        #expect(RequestState<[User]>.loading.isLoading)
        #expect(!RequestState<[User]>.idle.isLoading)
        #expect(!RequestState<[User]>.success([]).isLoading)
    }

    /// "Mock system has configurable delays": `MockTinyAPIClient(delay: 0.5)` → `delay: .milliseconds(500)`; no
    /// delay by default.
    @Test func mockDelaysAreDurations() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seed-spellings-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"[{"id":1,"name":"Ann"}]"#.utf8).write(to: directory.appendingPathComponent("mock_get_users.json"))
        let slept = Locked<[Duration]>([])
        let clock = TestClock(onSleep: { duration in slept.withLock { $0.append(duration) } })

        let delayed = MockTinyAPIClient(files: MockFiles(directory: directory), delay: .milliseconds(500), clock: clock)
        #expect(try await delayed.request(UserEndpoint.list, as: [User].self) == [User(id: 1, name: "Ann")])
        #expect(slept.withLock { $0 } == [.milliseconds(500)])

        let undelayed = MockTinyAPIClient(files: MockFiles(directory: directory), clock: clock)
        #expect(try await undelayed.request(UserEndpoint.list, as: [User].self).count == 1)
        #expect(slept.withLock { $0 }.allSatisfy { $0 == .milliseconds(500) || $0 == .zero })
    }

    /// `APIClientProtocol.requestData(_:)`: kept, on the live and the mock client.
    @Test func requestDataIsKept() async throws {
        let mock = MockTinyAPIClient(transport: MockTransport())
        mock.transport.register(.get, "/users", .json(#"[{"id":1,"name":"Ann"}]"#))
        let client: any APIClientProtocol = mock
        let data = try await client.requestData(UserEndpoint.list)
        #expect(String(decoding: data, as: UTF8.self) == #"[{"id":1,"name":"Ann"}]"#)
    }

    /// tinyAPI's `put(to:path:body:as:)` is not kept: `send(.put, to:path:body:as:)`.
    @Test func putIsSendPut() async throws {
        let mock = MockTinyAPIClient(transport: MockTransport())
        mock.transport.register(.put, "/users/1", .json(#"{"id":1,"name":"Bo"}"#))
        let client: any APIClientProtocol = mock
        let user = try await client.send(
            .put, to: "https://api.example.com", path: "/users/1", body: User(id: 1, name: "Bo"), as: User.self)
        #expect(user == User(id: 1, name: "Bo"))
        let sent = try #require(mock.transport.requests.first)
        #expect(sent.httpMethod == "PUT")
        #expect(sent.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(try JSONDecoder().decode(User.self, from: #require(sent.httpBody)) == User(id: 1, name: "Bo"))
    }

    /// tinyAPI's `TinyAPIClient(session:)` → `TinyAPIClient(transport: session)`: a `URLSession` is a transport.
    @Test func aSessionIsATransport() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /users", response: .json(200, #"[{"id":1,"name":"Ann"}]"#))
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }

        let client = TinyAPIClient(transport: session)
        let users = try await client.get(from: server.baseURL.absoluteString, path: "/users", as: [User].self)

        #expect(users == [User(id: 1, name: "Ann")])
    }
}
