import Foundation
import Testing
import TinyHTTPTransport
import TinyKitDemoServer

/// The demo server over real sockets on 127.0.0.1.
@Suite(.timeLimit(.minutes(1))) struct DemoServerTests {
    func request(_ method: HTTPMethod, _ url: URL, body: String? = nil) -> URLRequest {
        var request = URLRequest(method: method, url: url)
        request.httpBody = body.map { Data($0.utf8) }
        return request
    }

    @Test func servesTheAPIOnALoopbackPort() async throws {
        let server = try await DemoServer.start()
        defer { Task { await server.stop() } }
        #expect(server.baseURL.host == "127.0.0.1")
        #expect((server.baseURL.port ?? 0) > 0)

        let transport = URLSessionTransport()
        let (body, response) = try await transport.send(request(.get, server.baseURL.appendingRelative("users/2")))
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("application/json") == true)
        let user = try JSONDecoder().decode([String: JSONValue].self, from: body)
        #expect(user["name"] == "Grace Hopper")
    }

    @Test func answersStatusCodesOverHTTP() async throws {
        let server = try await DemoServer.start()
        defer { Task { await server.stop() } }
        let transport = URLSessionTransport()
        let todos = server.baseURL.appendingRelative("todos")
        let cases: [(URLRequest, Int)] = [
            (request(.post, todos, body: #"{"userId": 1, "title": "New", "completed": false}"#), 201),
            (
                request(.put, todos.appendingRelative("1"), body: #"{"userId": 1, "title": "A", "completed": true}"#),
                200
            ),
            (request(.delete, todos.appendingRelative("2")), 200),
            (request(.get, todos.appendingRelative("2")), 404),
            (request(.post, todos, body: "{oops"), 400),
            (request(.get, server.baseURL.appendingRelative("nothing")), 404),
        ]
        for (request, status) in cases {
            let (_, response) = try await transport.send(request)
            #expect(response.statusCode == status, "\(request.httpMethod ?? "") \(request.url?.path ?? "")")
        }
    }

    /// `If-None-Match` compares weakly and takes a list or `*` (RFC 9110 §13.1.2); only the exact tag got a 304.
    @Test func ifNoneMatchTakesWeakTagsListsAndAStar() async throws {
        let server = try await DemoServer.start()
        defer { Task { await server.stop() } }
        let transport = URLSessionTransport()
        let url = server.baseURL.appendingRelative("users/2")
        let etag = try #require(try await transport.send(request(.get, url)).1.value(forHTTPHeaderField: "ETag"))
        for (condition, status) in [
            (etag, 304), ("W/\(etag)", 304), (#""other", "# + etag, 304), ("*", 304), (#""other""#, 200),
        ] {
            var conditional = request(.get, url)
            conditional.setValue(condition, forHTTPHeaderField: "If-None-Match")
            #expect(try await transport.send(conditional).1.statusCode == status, "\(condition)")
        }
    }

    @Test func eachServerHasItsOwnData() async throws {
        let first = try await DemoServer.start()
        let second = try await DemoServer.start()
        defer {
            Task {
                await first.stop()
                await second.stop()
            }
        }
        #expect(first.baseURL != second.baseURL)
        _ = first.api.handle(DemoRequest(method: "DELETE", path: "/users/1"))
        #expect(second.api.handle(DemoRequest(method: "GET", path: "/users/1")).status == 200)
    }
}
