import Foundation
import Testing
import TinyKitTestServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The shared test server itself, exercised with a plain `URLSession`.
@Suite(.timeLimit(.minutes(1))) struct TransportTestServerTests {
    let session = URLSession(configuration: .ephemeral)

    @Test func registeredRoutesAnswerAndRequestsAreRecorded() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("POST /users/:id") { request in
            try .json(201, ["received": request.bodyText])
        }
        var request = URLRequest(url: server.url("/users/7?q=a%2Bb&x=1"))
        request.httpMethod = "POST"
        request.setValue("yes", forHTTPHeaderField: "X-Test")
        request.httpBody = Data("hello".utf8)
        let (data, response) = try await session.data(for: request)

        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 201)
        #expect(String(decoding: data, as: UTF8.self) == #"{"received":"hello"}"#)
        let seen = try #require(server.requests.first)
        #expect(seen.method == "POST")
        #expect(seen.path == "/users/7")
        #expect(seen.rawQuery == "q=a%2Bb&x=1")
        #expect(seen.query == [.init(name: "q", value: "a+b"), .init(name: "x", value: "1")])
        #expect(seen.header("x-test") == "yes")
        #expect(seen.body == Data("hello".utf8))
    }

    @Test func builtInStatusAndNotFoundAnswerWithJSON() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (data, response) = try await session.data(from: server.url("/status/503"))
        #expect((response as? HTTPURLResponse)?.statusCode == 503)
        #expect(String(decoding: data, as: UTF8.self) == #"{"status":503}"#)

        let (missing, notFound) = try await session.data(from: server.url("/nothing/here"))
        #expect((notFound as? HTTPURLResponse)?.statusCode == 404)
        #expect(String(decoding: missing, as: UTF8.self).contains("no route for GET /nothing/here"))
    }

    @Test func echoReturnsTheRecordedRequest() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (data, _) = try await session.data(from: server.url("/echo/a?b=c"))
        let echoed = try JSONDecoder().decode(RecordedRequest.self, from: data)
        #expect(echoed.path == "/echo/a")
        #expect(echoed.queryValue("b") == "c")
    }

    @Test func gzipBodyIsDecodedByTheClient() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (data, _) = try await session.data(from: server.url("/gzip"))
        #expect(String(decoding: data, as: UTF8.self) == TestServer.gzipJSON)
    }

    @Test func manyServersRunInParallel() async throws {
        try await withThrowingTaskGroup(of: UInt16.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let server = try await TestServer.start()
                    defer { server.stop() }
                    _ = try await URLSession(configuration: .ephemeral).data(from: server.url("/echo"))
                    #expect(server.requests.count == 1)
                    return server.port
                }
            }
            var ports = Set<UInt16>()
            for try await port in group { ports.insert(port) }
            #expect(ports.count == 4)
        }
    }
}
