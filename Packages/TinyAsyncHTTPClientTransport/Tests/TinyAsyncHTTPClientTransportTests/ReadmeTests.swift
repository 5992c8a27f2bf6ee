import AsyncHTTPClient
import Foundation
import Testing
import TinyAsyncHTTPClientTransport
import TinyHTTPTransport
import TinyKitTestServer

// The README's quick start and "Your own client", verbatim, compiled here:
struct Todo: Decodable, Sendable {
    let id: Int
    let title: String
}

func fetchTodos(from base: URL, transport: any HTTPTransport = AsyncHTTPClientTransport.shared) async throws -> [Todo] {
    var request = URLRequest(method: .get, url: base.appendingPathComponent("todos"))
    request.timeoutInterval = 10
    let (body, response) = try await transport.send(request)
    try validateStatus(response: response, body: body, request: request)
    return try JSONDecoder().decode([Todo].self, from: body)
}

func withAPITransport(_ body: (AsyncHTTPClientTransport) async throws -> Void) async throws {
    var configuration = HTTPClient.Configuration.tinyKit
    configuration.timeout.read = .seconds(20)
    let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    do {
        try await body(AsyncHTTPClientTransport(client: client, maximumResponseBodySize: 1 << 20))
    } catch {
        try await client.shutdown()
        throw error
    }
    try await client.shutdown()
}

/// The README's snippets, run against the in-process server.
@Suite(.timeLimit(.minutes(1))) struct ReadmeTests {
    @Test func quickStartFetchesAndDecodes() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route(
            "GET /api/todos", response: .json(200, #"[{"id":1,"title":"Write"},{"id":2,"title":"Ship"}]"#))

        let todos = try await fetchTodos(from: server.url("/api"))

        #expect(todos.map(\.title) == ["Write", "Ship"])
        #expect(server.requests.first?.path == "/api/todos")
    }

    @Test func quickStartReportsAnUnacceptableStatus() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }

        let error = try await #require(throws: HTTPTransportError.self) {
            try await fetchTodos(from: server.url("/missing"))  // no route: 404
        }

        #expect(error.code == .unacceptableStatus(404))
    }

    @Test func ownClientSendsAndIsShutDown() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /todos", response: .json(200, #"[{"id":3,"title":"Rest"}]"#))

        try await withAPITransport { transport in
            #expect(transport.maximumResponseBodySize == 1 << 20)
            let todos = try await fetchTodos(from: server.baseURL, transport: transport)
            #expect(todos.map(\.id) == [3])
        }
    }
}
