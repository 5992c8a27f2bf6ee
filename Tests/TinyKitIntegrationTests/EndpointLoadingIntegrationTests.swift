// TinyEndpoint's loading APIs against the real in-process server: `HTTPTransport.load(_:)` on the live transport,
// `URLSession.load(_:onComplete:)`, `URLSession.load(_:)` and `URLSession.dataTask(endpoint:completionHandler:)`,
// and `TinyAPIClient` — status codes, empty bodies, query encoding, cancellation.
import Foundation
import Testing
import TinyKit
import TinyKitTestServer

@Suite(.timeLimit(.minutes(1))) struct EndpointLoadingIntegrationTests {
    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var name: String
    }

    let transport = URLSessionTransport.shared

    @Test func loadsJSONWithQueryHeadersAndBody() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("POST /items") { request in .json(201, #"{"id":1,"# + request.bodyText.dropFirst()) }
        let endpoint = Endpoint<Item>(
            json: .post, url: server.url("/items?keep=1"), body: ["name": "a b+c"], headers: ["X-Trace": "t1"],
            query: ["q": "x & y+z", "lang": "ü"])

        #expect(try await transport.load(endpoint) == Item(id: 1, name: "a b+c"))
        let received = try #require(server.requests.first)
        #expect(received.query.map { "\($0.name)=\($0.value)" } == ["keep=1", "lang=ü", "q=x & y+z"])
        #expect(received.header("X-Trace") == "t1")
        #expect(received.header("Content-Type") == "application/json")
        #expect(received.header("Accept") == "application/json")
    }

    @Test func emptyBodiesSucceedWhereTheTypeAllowsIt() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let noContent = server.url("/status/204")
        try await transport.load(Endpoint<()>(.delete, url: noContent))
        #expect(try await transport.load(Endpoint<Item?>(json: .get, url: noContent)) == nil)
        #expect(try await transport.load(Endpoint<EmptyResponse>(json: .get, url: noContent)) == EmptyResponse())
        let error = try await #require(throws: EndpointError.self) {
            try await transport.load(Endpoint<Item>(json: .get, url: noContent))
        }
        guard case .noData(let type, let response) = error else {
            Issue.record("expected noData, got \(error)")
            return
        }
        #expect(type == "Item")
        #expect(response?.statusCode == 204)
    }

    @Test func anUnacceptableStatusKeepsTheEvidence() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.load(Endpoint<Item>(json: .get, url: server.url("/status/422")))
        }
        #expect(error.code == .unacceptableStatus(422))
        #expect(error.response?.statusCode == 422)
        #expect(error.body.map { String(decoding: $0, as: UTF8.self) } == #"{"status":422}"#)
    }

    @Test func aDecodingFailureNamesTypeAndPath() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /items", response: .json(200, #"[{"id":1,"name":"a"},{"id":"two","name":"b"}]"#))
        let error = try await #require(throws: EndpointError.self) {
            try await transport.load(Endpoint<[Item]>(json: .get, url: server.url("/items")))
        }
        guard case .decodingFailed(let type, let codingPath, let underlying, _) = error else {
            Issue.record("expected decodingFailed, got \(error)")
            return
        }
        #expect(type == "Array<Item>")
        #expect(codingPath == "[1].id")
        #expect(underlying is DecodingError)
    }

    @Test func cancellingTheTaskCancelsTheRequest() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let url = server.url("/slow?seconds=10")
        let transport = self.transport
        let loading = Task { try await transport.load(Endpoint<()>(.get, url: url)) }
        #expect(await server.waitForRequests(count: 1).count >= 1)
        loading.cancel()
        let error = try await #require(throws: HTTPTransportError.self) { try await loading.value }
        #expect(error.code == .cancelled)
    }

    @Test func urlSessionLoadWithCompletionReturnsAStartedTask() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /items/1", response: .json(200, #"{"id":1,"name":"one"}"#))
        let endpoint = Endpoint<Item>(json: .get, url: server.url("/items/1"))
        let result = await withCheckedContinuation { continuation in
            let task = URLSession.shared.load(endpoint) { continuation.resume(returning: try? $0.get()) }
            #expect(task.state != .suspended)
        }
        #expect(result == Item(id: 1, name: "one"))
    }

    @Test func urlSessionLoadWithCompletionReportsCancellation() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let endpoint = Endpoint<()>(.get, url: server.url("/slow?seconds=10"))
        let code = await withCheckedContinuation { continuation in
            let task = URLSession.shared.load(endpoint) { result in
                continuation.resume(returning: (result.error as? HTTPTransportError)?.code)
            }
            Task {
                #expect(await server.waitForRequests(count: 1).count >= 1)
                task.cancel()
            }
        }
        #expect(code == .cancelled)
    }

    @Test func urlSessionAsyncLoad() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /items", response: .json(200, #"[{"id":2,"name":"two"}]"#))
        #expect(try await URLSession.shared.load(Endpoint<[Item]>(json: .get, url: server.url("/items"))).count == 1)
        await #expect(throws: HTTPTransportError.self) {
            try await URLSession.shared.load(Endpoint<[Item]>(json: .get, url: server.url("/status/500")))
        }
    }

    @Test func dataTaskReportsStatusAndDecodingErrors() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let endpoint = Endpoint<Item>(json: .get, url: server.url("/status/404"))
        let error = await withCheckedContinuation { continuation in
            URLSession.shared.dataTask(endpoint: endpoint) { continuation.resume(returning: $0.error) }.resume()
        }
        #expect((error as? HTTPTransportError)?.code == .unacceptableStatus(404))
    }

    @Test func dataTaskNeverInjectsAHeaderThroughCRLF() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let endpoint = Endpoint<()>(.get, url: server.url("/echo"), headers: ["X-Evil": "a\r\nX-Injected: 1"])
        let error = await withCheckedContinuation { continuation in
            let task = URLSession.shared.dataTask(endpoint: endpoint) { continuation.resume(returning: $0.error) }
            task.resume()
        }
        // The value is kept as given (not dropped, as `setValue(_:forHTTPHeaderField:)` does on Linux), so the
        // request is refused before it is sent, with an error naming the header.
        let refusal = try #require(error as? HTTPTransportError)
        #expect(refusal.code == .invalidRequest)
        #expect(refusal.description.contains("X-Evil"))
        #expect(server.requests.isEmpty)
    }

    @Test func tinyAPIClientKeepsTheBasePath() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /api/v4/items", response: .json(200, #"[{"id":3,"name":"three"}]"#))
        let items = try await TinyAPIClient.live.get(
            from: server.url("/api/v4").absoluteString, path: "/items",
            queryItems: [URLQueryItem(name: "filter", value: "a+b")], as: [Item].self)
        #expect(items == [Item(id: 3, name: "three")])
        #expect(server.requests.first?.queryValue("filter") == "a+b")
        #expect(server.requests.first?.header("Content-Type") == nil)
    }
}
