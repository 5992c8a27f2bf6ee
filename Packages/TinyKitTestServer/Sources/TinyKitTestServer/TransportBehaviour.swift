import Foundation
import Testing
import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The behaviour every `HTTPTransport` shares, as a table of cases to run against each transport: round trips,
/// statuses, redirects, encodings, timeouts, cancellation, refused requests and misbehaving servers.
///
/// ```swift
/// @Test(arguments: TransportBehaviour.cases)
/// func behaviour(_ check: TransportBehaviourCase) async throws {
///     try await check.run(URLSessionTransport(configuration: .ephemeral))
/// }
/// ```
///
/// Each case starts its own server on `127.0.0.1`, so the cases run in parallel. Where URLSession on Linux
/// (FoundationNetworking) is known to differ from other clients, the case says so and checks only what they share.
public enum TransportBehaviour {
    /// Every case of the suite, each named for what it checks.
    // Computed, not a `static let`: a table kept for the whole process would show as leaks under LeakSanitizer.
    public static var cases: [TransportBehaviourCase] {
        roundTrips + statuses.map(statusComesBack) + putAndDelete + redirects + failures + refusals
            + misbehavingServers
    }

    // MARK: Round trips

    private static var roundTrips: [TransportBehaviourCase] {
        [
            .onServer("GET round trip carries query, headers and body") { transport, server in
                await server.route("GET /users/:id") { _ in
                    .json(200, #"{"id":7,"name":"Ada"}"#, headers: ["X-Server": "flying-fox"])
                }
                var request = URLRequest(method: .get, url: server.url("/users/7"))
                request.httpAccept(.json)
                request.setValue("tiny", forHTTPHeaderField: "X-Client")
                request.url = request.url?.appendingQueryParameters(["q": "a+b c", "lang": "ü"])

                let (body, response) = try await transport.send(request)

                #expect(response.statusCode == 200)
                #expect(response.value(forHTTPHeaderField: "X-Server") == "flying-fox")
                #expect(text(body) == #"{"id":7,"name":"Ada"}"#)
                let seen = try #require(server.requests.first)
                #expect(seen.method == "GET")
                #expect(seen.path == "/users/7")
                #expect(seen.query == [.init(name: "lang", value: "ü"), .init(name: "q", value: "a+b c")])
                #expect(seen.header("Accept") == "application/json")
                #expect(seen.header("X-Client") == "tiny")
            },
            .onServer("POST sends its body and gets the response's") { transport, server in
                await server.route("POST /users") { request in
                    .json(201, #"{"created":\#(request.bodyText)}"#, headers: ["Location": "/users/8"])
                }
                var request = URLRequest(method: .post, url: server.url("/users"))
                request.httpContentType(.json)
                request.httpBody = Data(#"{"name":"Grace"}"#.utf8)

                let (body, response) = try await transport.send(request)

                #expect(response.statusCode == 201)
                #expect(response.value(forHTTPHeaderField: "Location") == "/users/8")
                #expect(text(body) == #"{"created":{"name":"Grace"}}"#)
                let seen = try #require(server.requests.first)
                #expect(seen.method == "POST")
                #expect(seen.header("Content-Type") == "application/json")
                #expect(seen.bodyText == #"{"name":"Grace"}"#)
            },
            .onServer("HEAD returns the headers and an empty body") { transport, server in
                await server.route("GET,HEAD /document", response: .text(200, "twelve bytes", headers: ["X-Doc": "1"]))

                let (body, response) = try await transport.send(URLRequest(method: .head, url: server.url("/document")))

                #expect(response.statusCode == 200)
                #expect(response.value(forHTTPHeaderField: "X-Doc") == "1")
                #expect(response.value(forHTTPHeaderField: "Content-Length") == "12")
                #expect(body.isEmpty)
                #expect(server.requests.map(\.method) == ["HEAD"])
            },
            .onServer("a 1 MiB response body arrives intact") { transport, server in
                let count = 1 << 20

                let (body, response) = try await transport.send(URLRequest(url: server.url("/bytes?count=\(count)")))

                #expect(response.statusCode == 200)
                #expect(body.count == count)
                #expect(firstDifference(body, TestServer.bytes(count: count)) == nil)
            },
            .onServer("16 concurrent requests on one transport each get their own answer") { transport, server in
                // Each answer waits a little, so that the requests are in flight together.
                await server.route("GET /concurrent/:index") { request in
                    TestResponse.text(200, request.path).delayed(by: 0.2)
                }
                let answers = try await withThrowingTaskGroup(of: (String, String?, String).self) { group in
                    for index in 0..<16 {
                        group.addTask {
                            let (body, response) = try await transport.send(
                                URLRequest(url: server.url("/concurrent/\(index)")))
                            return ("/concurrent/\(index)", response.url?.path, text(body))
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }

                #expect(answers.count == 16)
                for (path, responsePath, body) in answers {
                    #expect(responsePath == path)
                    #expect(body == path)
                }
                #expect(Set(server.requests.map(\.path)) == Set((0..<16).map { "/concurrent/\($0)" }))
            },
            .onServer("response header lookup is case-insensitive") { transport, server in
                await server.route(
                    "GET /headers",
                    response: .json(200, "{}", headers: ["X-Mixed-Case": "yes"]))

                let (_, response) = try await transport.send(URLRequest(url: server.url("/headers")))

                #expect(response.value(forHTTPHeaderField: "content-type") == "application/json")
                #expect(response.value(forHTTPHeaderField: "CONTENT-TYPE") == "application/json")
                #expect(response.value(forHTTPHeaderField: "x-mixed-case") == "yes")
            },
            .onServer("gzip body is decoded") { transport, server in
                let (body, response) = try await transport.send(URLRequest(url: server.url("/gzip")))

                #expect(response.statusCode == 200)
                #expect(text(body) == TestServer.gzipJSON)
            },
        ]
    }

    /// PUT and DELETE, each with and without a body.
    private static var putAndDelete: [TransportBehaviourCase] {
        [(HTTPMethod.put, "a body"), (.put, nil), (.delete, "a body"), (.delete, nil)].map { method, sent in
            let what =
                sent == nil
                ? "without a body reaches the server with no body" : "with a body reaches the server with it"
            return .onServer("\(method.rawValue) \(what)") { transport, server in
                var request = URLRequest(method: method, url: server.url("/echo/item"))
                request.httpBody = sent.map { Data($0.utf8) }

                let (body, response) = try await transport.send(request)

                #expect(response.statusCode == 200)
                let seen = try #require(server.requests.first)
                #expect(seen.method == method.rawValue)
                #expect(seen.path == "/echo/item")
                #expect(seen.bodyText == sent ?? "")
                #expect(try JSONDecoder().decode(RecordedRequest.self, from: body) == seen)
            }
        }
    }

    // MARK: Statuses

    /// The statuses ``statusComesBack(_:)`` checks: success, no content, not modified, client and server errors
    /// (a 401 without `WWW-Authenticate` too).
    private static let statuses = [200, 201, 202, 204, 304, 400, 401, 404, 409, 422, 500, 502, 503]

    /// A transport returns every response, whatever its status, with its body (none for 204 and 304).
    private static func statusComesBack(_ status: Int) -> TransportBehaviourCase {
        let hasBody = status != 204 && status != 304
        let name = "status \(status) comes back as a response \(hasBody ? "with its body" : "without a body")"
        return .onServer(name) { transport, server in
            let (body, response) = try await transport.send(URLRequest(url: server.url("/status/\(status)")))

            #expect(response.statusCode == status)
            #expect(text(body) == (hasBody ? #"{"status":\#(status)}"# : ""))
            #expect(server.requests.count == 1)
        }
    }

    // MARK: Redirects

    private static var redirects: [TransportBehaviourCase] {
        [
            .onServer("302 redirect is followed to the final URL") { transport, server in
                let (body, response) = try await transport.send(
                    URLRequest(url: server.url("/redirect?to=/echo/final&status=302")))

                #expect(response.statusCode == 200)
                #expect(response.url?.path == "/echo/final")
                #expect(try JSONDecoder().decode(RecordedRequest.self, from: body).path == "/echo/final")
                #expect(server.requests.map(\.path) == ["/redirect", "/echo/final"])
            },
            // The redirect's own body is not the response's: the response and body are the final ones.
            .onServer("302 with a body of its own is followed to the final response") { transport, server in
                let moved = "<a href=\"/echo/final\">moved</a>"
                await server.route(
                    "GET /moved",
                    response: TestResponse(
                        status: 302, headers: ["Location": "/echo/final", "Content-Type": "text/html"],
                        body: Data(moved.utf8)))

                let (body, response) = try await transport.send(URLRequest(url: server.url("/moved")))

                #expect(response.statusCode == 200)
                #expect(response.url?.path == "/echo/final")
                #expect(response.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("application/json") == true)
                #expect(try JSONDecoder().decode(RecordedRequest.self, from: body).path == "/echo/final")
            },
            // Not in the suite: a 307 after POST, which URLSession on Linux follows with a POST whose body it drops.
            .onServer("303 after POST is followed with a GET without the body") { transport, server in
                await server.route("POST /form", response: .redirect(to: "/echo/after", status: 303))
                var request = URLRequest(method: .post, url: server.url("/form"))
                request.httpContentType("application/x-www-form-urlencoded")
                request.httpBody = Data("name=Ada".utf8)

                let (_, response) = try await transport.send(request)

                #expect(response.statusCode == 200)
                #expect(response.url?.path == "/echo/after")
                #expect(server.requests.map { "\($0.method) \($0.path)" } == ["POST /form", "GET /echo/after"])
                #expect(server.requests.last?.body.isEmpty == true)
            },
        ]
    }

    // MARK: Failures

    private static var failures: [TransportBehaviourCase] {
        [
            .onServer("slow server times out as timedOut, with the request") { transport, server in
                var request = URLRequest(url: server.url("/slow?seconds=20"))
                request.timeoutInterval = 0.5

                let error = try await #require(throws: HTTPTransportError.self) { try await transport.send(request) }

                #expect(error.code == .timedOut)
                #expect(error.request?.url == request.url)
                #expect(error.underlyingError != nil)
            },
            TransportBehaviourCase("nothing listening fails as cannotConnect, naming the URL") { transport in
                // Port 1 on loopback: nothing listens there, and no parallel test is handed it (they bind port 0).
                let url = try #require(URL(string: "http://127.0.0.1:1/users"))

                let error = try await #require(throws: HTTPTransportError.self) {
                    try await transport.send(URLRequest(url: url))
                }

                #expect(error.code == .cannotConnect)
                #expect(error.request?.url == url)
                #expect(error.description.contains(url.absoluteString))
            },
            .onServer("cancelling the awaiting task fails as cancelled and closes the connection") {
                transport, server in
                // 400 bytes, one every 50 ms: the response would take 20 s.
                let request = URLRequest(url: server.url("/trickle?bytes=400&interval=0.05"))
                let task = Task { try await transport.send(request) }
                #expect(await server.waitForRequests(count: 1).count >= 1)

                task.cancel()
                let result = await task.result

                let error = try #require(throws: HTTPTransportError.self) { try result.get() }
                #expect(error.code == .cancelled)
                #expect(await server.waitForClosedConnections(atLeast: 1, timeout: 30))
                // After the close: a transport that let the response run to its end closes only then.
                #expect(server.finishedTrickles == 0)
            },
            .onServer("a task cancelled before sending fails as cancelled") { transport, server in
                let request = URLRequest(url: server.url("/slow?seconds=20"))
                let task = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await transport.send(request)
                }

                let error = try await #require(throws: HTTPTransportError.self) { try await task.value }

                #expect(error.code == .cancelled)
            },
            // URLSession on Linux drops the body of a 401 that carries a challenge; other clients keep it.
            .onServer("401 with WWW-Authenticate arrives as a 401 response") { transport, server in
                let (_, response) = try await transport.send(URLRequest(url: server.url("/auth/basic")))

                #expect(response.statusCode == 401)
                #expect(response.value(forHTTPHeaderField: "WWW-Authenticate") == #"Basic realm="test""#)
                #expect(server.requests.count == 1)
            },
            .onServer("401 then authorized on the same transport") { transport, server in
                let (_, first) = try await transport.send(URLRequest(url: server.url("/auth/basic")))
                var request = URLRequest(url: server.url("/auth/basic"))
                request.setValue("Basic dXNlcjpwYXNz", forHTTPHeaderField: "Authorization")

                let (body, second) = try await transport.send(request)

                #expect(first.statusCode == 401)
                #expect(second.statusCode == 200)
                #expect(text(body) == #"{"authenticated":true}"#)
            },
        ]
    }

    // MARK: Refused requests

    private static var refusals: [TransportBehaviourCase] {
        [
            .onServer("header with CR or LF is refused as invalidRequest naming it, nothing sent") {
                transport, server in
                var request = URLRequest(url: server.url("/refused"))
                request.allHTTPHeaderFields = ["X-Note": "a\r\nX-Injected: yes"]

                let error = try await #require(throws: HTTPTransportError.self) { try await transport.send(request) }

                #expect(error.code == .invalidRequest)
                #expect(error.message?.contains("X-Note") == true)
                try await expectOnlyTheNextRequestArrives(through: transport, at: server)
            },
            .onServer("header name that is not a token is refused as invalidRequest, nothing sent") {
                transport, server in
                var request = URLRequest(url: server.url("/refused"))
                request.allHTTPHeaderFields = ["Ä-Note": "x"]

                let error = try await #require(throws: HTTPTransportError.self) { try await transport.send(request) }

                #expect(error.code == .invalidRequest)
                #expect(error.message?.contains("is not an HTTP token") == true)
                try await expectOnlyTheNextRequestArrives(through: transport, at: server)
            },
            .onServer("method that is not a token is refused as invalidRequest, nothing sent") { transport, server in
                // A request line the server can still parse, so that one sent anyway is recorded (`GET /smuggled`).
                let method = HTTPMethod(rawValue: "GET /smuggled HTTP/1.1\r\nX-Injected: 1\r\nX:")
                let request = URLRequest(method: method, url: server.url("/refused"))

                let error = try await #require(throws: HTTPTransportError.self) { try await transport.send(request) }

                #expect(error.code == .invalidRequest)
                #expect(error.message?.contains("is not an HTTP token") == true)
                try await expectOnlyTheNextRequestArrives(through: transport, at: server)
            },
        ]
    }

    /// Sends a `GET /echo/next` and expects it to be the only request the server ever saw: a refused request sent
    /// anyway would have arrived first, on the same connection or an earlier one.
    private static func expectOnlyTheNextRequestArrives(
        through transport: any HTTPTransport, at server: TestServer
    ) async throws {
        let (_, response) = try await transport.send(URLRequest(url: server.url("/echo/next")))
        #expect(response.statusCode == 200)
        #expect(server.requests.map { "\($0.method) \($0.path)" } == ["GET /echo/next"])
    }

    // MARK: Misbehaving servers

    private static var misbehavingServers: [TransportBehaviourCase] {
        [
            .onRawServer(
                "a reply that is not HTTP fails as other, with the request",
                script: [.send(Data("SSH-2.0-OpenSSH_9.2\r\n".utf8))]
            ) { transport, server in
                let request = URLRequest(url: server.url("/garbage"))

                let error = try await #require(throws: HTTPTransportError.self) { try await transport.send(request) }

                #expect(error.code == .other)
                #expect(error.request?.url == request.url)
                #expect(error.response == nil)
            },
            // URLSession on Linux reports an empty reply as URLError -1011 (bad server response), which
            // URLSessionTransport maps to `.cannotConnect`, as Apple platforms and AsyncHTTPClient report it.
            .onRawServer(
                "a connection closed without an answer fails as cannotConnect, with the request", script: []
            ) { transport, server in
                let request = URLRequest(url: server.url("/hang-up"))

                let error = try await #require(throws: HTTPTransportError.self) { try await transport.send(request) }

                #expect(error.code == .cannotConnect)
                #expect(error.request?.url == request.url)
                #expect(error.response == nil)
                #expect(server.requests == 1)
            },
        ]
    }

    private static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    /// The offset of the first byte where `some` and `other` differ (or where the shorter ends); `nil` when equal.
    ///
    /// Compare large bodies with it, not with `#expect(body == expected)`: on a mismatch Swift Testing diffs two
    /// collections element by element, which for a megabyte takes hours.
    private static func firstDifference(_ some: Data, _ other: Data) -> Int? {
        let (some, other) = ([UInt8](some), [UInt8](other))
        if let offset = zip(some, other).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return offset
        }
        return some.count == other.count ? nil : min(some.count, other.count)
    }
}
