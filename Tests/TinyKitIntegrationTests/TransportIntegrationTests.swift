import Foundation
import Testing
import TinyKit
import TinyKitTestServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `URLSessionTransport` against a real HTTP server on 127.0.0.1.
@Suite struct TransportIntegrationTests {
    let transport = URLSessionTransport(configuration: .ephemeral)

    /// Sends with `transport`, failing instead of hanging should no answer come within 60 s.
    private func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await bounded { [transport] in try await transport.send(request) }
    }

    @Test func getRoundTripCarriesQueryHeadersAndBody() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /users/:id") { _ in
            .json(200, #"{"id":7,"name":"Ada"}"#, headers: ["X-Server": "flying-fox"])
        }
        var request = URLRequest(method: .get, url: server.url("/users/7"))
        request.httpAccept(.json)
        request.setValue("tiny", forHTTPHeaderField: "X-Client")
        request.appendQueryParameters(["q": "a+b c", "lang": "ü"])

        let (body, response) = try await send(request)

        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "X-Server") == "flying-fox")
        #expect(String(decoding: body, as: UTF8.self) == #"{"id":7,"name":"Ada"}"#)
        let seen = try #require(server.requests.first)
        #expect(seen.method == "GET")
        #expect(seen.path == "/users/7")
        #expect(seen.query == [.init(name: "lang", value: "ü"), .init(name: "q", value: "a+b c")])
        #expect(seen.header("Accept") == "application/json")
        #expect(seen.header("X-Client") == "tiny")
    }

    @Test func postRoundTripSendsTheBody() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("POST /users") { request in
            .json(201, #"{"created":\#(request.bodyText)}"#, headers: ["Location": "/users/8"])
        }
        var request = URLRequest(method: .post, url: server.url("/users"))
        request.httpContentType(.json)
        request.httpBody = Data(#"{"name":"Grace"}"#.utf8)

        let (body, response) = try await send(request)

        #expect(response.statusCode == 201)
        #expect(response.value(forHTTPHeaderField: "Location") == "/users/8")
        #expect(String(decoding: body, as: UTF8.self) == #"{"created":{"name":"Grace"}}"#)
        let seen = try #require(server.requests.first)
        #expect(seen.method == "POST")
        #expect(seen.header("Content-Type") == "application/json")
        #expect(seen.bodyText == #"{"name":"Grace"}"#)
    }

    @Test(arguments: [200, 201, 202, 204, 304, 400, 404, 409, 422, 500, 502, 503])
    func everyStatusComesBackAsAResponse(status: Int) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let request = URLRequest(url: server.url("/status/\(status)"))

        let (body, response) = try await send(request)

        #expect(response.statusCode == status)
        let hasBody = status != 204 && status != 304
        #expect(String(decoding: body, as: UTF8.self) == (hasBody ? #"{"status":\#(status)}"# : ""))
        #expect(server.requests.count == 1)
    }

    @Test func redirectIsFollowed() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let request = URLRequest(url: server.url("/redirect?to=/echo/final&status=302"))

        let (body, response) = try await send(request)

        #expect(response.statusCode == 200)
        #expect(response.url?.path == "/echo/final")
        #expect(try JSONDecoder().decode(RecordedRequest.self, from: body).path == "/echo/final")
        #expect(server.requests.map(\.path) == ["/redirect", "/echo/final"])
    }

    @Test func gzipBodyIsDecoded() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }

        let (body, response) = try await send(URLRequest(url: server.url("/gzip")))

        #expect(response.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == TestServer.gzipJSON)
    }

    @Test func slowServerTimesOut() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        var request = URLRequest(url: server.url("/slow?seconds=20"))
        request.timeoutInterval = 0.5

        let error = try await #require(throws: HTTPTransportError.self) {
            try await send(request)
        }

        #expect(error.code == .timedOut)
        #expect(error.request?.url == request.url)
        #expect(error.underlyingError != nil)
    }

    @Test func nothingListeningCannotConnect() async throws {
        // Port 1 on loopback: nothing listens there, and no parallel test can be handed it (they bind port 0).
        let url = try #require(URL(string: "http://127.0.0.1:1/users"))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await send(URLRequest(url: url))
        }

        #expect(error.code == .cannotConnect)
        #expect(error.request?.url == url)
        #expect(error.description.contains(url.absoluteString))
    }

    @Test func cancellingTheTaskCancelsTheRequestAndClosesTheConnection() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        // 400 bytes, one every 50 ms: the response would take 20 s.
        let request = URLRequest(url: server.url("/trickle?bytes=400&interval=0.05"))
        let transport = self.transport
        let task = Task { try await transport.send(request) }
        #expect(await server.waitForRequests(count: 1).count >= 1)

        task.cancel()
        let result = await task.result

        let error = try #require(throws: HTTPTransportError.self) { try result.get() }
        #expect(error.code == .cancelled)
        #expect(server.finishedTrickles == 0)
        #expect(await server.waitForClosedConnections(atLeast: 1, timeout: 30))
    }

    @Test func taskCancelledBeforeSendingFailsAsCancelled() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let request = URLRequest(url: server.url("/slow?seconds=20"))
        let transport = self.transport
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(request)
        }

        let error = try await #require(throws: HTTPTransportError.self) { try await task.value }

        #expect(error.code == .cancelled)
    }

    @Test func unauthorizedWithChallengeArrivesAsA401Response() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        var request = URLRequest(url: server.url("/auth/basic"))
        request.timeoutInterval = 60

        let (_, response) = try await send(request)

        #expect(response.statusCode == 401)
        #expect(response.value(forHTTPHeaderField: "WWW-Authenticate") == #"Basic realm="test""#)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(server.requests.count == 1)
    }

    @Test func loadingAnEndpointTurnsThe401IntoAnUnacceptableStatusError() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let endpoint = Endpoint<[String: Bool]>(json: .get, url: server.url("/auth/basic"))
        let transport = self.transport

        let error = try await #require(throws: HTTPTransportError.self) {
            try await bounded { try await transport.load(endpoint) }
        }

        #expect(error.code == .unacceptableStatus(401))
        #expect(error.response?.value(forHTTPHeaderField: "WWW-Authenticate") == #"Basic realm="test""#)
        #expect(error.description.contains("unacceptable status 401: GET \(server.url("/auth/basic").absoluteString)"))
    }

    @Test func unauthorizedThenAuthorizedWithTheSameTransport() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let (_, first) = try await send(URLRequest(url: server.url("/auth/basic")))
        var request = URLRequest(url: server.url("/auth/basic"))
        request.setValue("Basic dXNlcjpwYXNz", forHTTPHeaderField: "Authorization")

        let (body, second) = try await send(request)

        #expect(first.statusCode == 401)
        #expect(second.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == #"{"authenticated":true}"#)
    }

    @Test func unauthorizedWithoutChallengeKeepsItsBody() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }

        let (body, response) = try await bounded {
            try await transport.send(URLRequest(url: server.url("/status/401")))
        }

        #expect(response.statusCode == 401)
        #expect(String(decoding: body, as: UTF8.self) == #"{"status":401}"#)
    }

    @Test func headerWithLineBreakIsRefusedBeforeSending() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        var request = URLRequest(url: server.url("/echo"))
        request.allHTTPHeaderFields = ["X-Note": "a\r\nX-Injected: yes"]

        let error = try await #require(throws: HTTPTransportError.self) { try await transport.send(request) }

        #expect(error.code == .invalidRequest)
        #expect(error.message?.contains("X-Note") == true)
        let afterwards = try await send(URLRequest(url: server.url("/echo")))
        #expect(afterwards.1.statusCode == 200)
        #expect(server.requests.map(\.path) == ["/echo"])
    }

    /// On Linux a method with CR/LF would be written into the request line as it is (request splitting).
    @Test func methodThatIsNotATokenIsRefusedBeforeSending() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let request = URLRequest(method: HTTPMethod("GET\r\nX-Injected: 1\r\nX:"), url: server.url("/echo"))

        let error = try await #require(throws: HTTPTransportError.self) { try await transport.send(request) }
        #expect(error.code == .invalidRequest)
        #expect(error.message?.contains("is not an HTTP token") == true)

        let endpoint = Endpoint<()>(request: request) { _, _ in .success(()) }
        let refusal = await withCheckedContinuation { continuation in
            URLSession.shared.dataTask(endpoint: endpoint) { continuation.resume(returning: $0) }.resume()
        }
        #expect(throws: HTTPTransportError.self) { try refusal.get() }
        let afterwards = try await send(URLRequest(method: .get, url: server.url("/echo")))
        #expect(afterwards.1.statusCode == 200)
        #expect(server.requests.map(\.method) == ["GET"])
    }

    @Test func urlSessionIsATransportToo() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let session: any HTTPTransport = URLSession(configuration: .ephemeral)

        let (body, response) = try await bounded { try await session.send(URLRequest(url: server.url("/status/404"))) }

        #expect(response.statusCode == 404)
        #expect(String(decoding: body, as: UTF8.self) == #"{"status":404}"#)
    }

    @Test func givenSessionWhoseDelegateCancelsChallengesGetsThe401() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral, delegate: CancelChallenges(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let transport = URLSessionTransport(session: session)

        let (_, response) = try await bounded { try await transport.send(URLRequest(url: server.url("/auth/basic"))) }

        #expect(response.statusCode == 401)
        #expect(response.value(forHTTPHeaderField: "WWW-Authenticate") == #"Basic realm="test""#)
    }

    @Test func sharedTransportWorks() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }

        let (_, response) = try await bounded {
            try await URLSessionTransport.shared.send(URLRequest(url: server.url("/echo")))
        }

        #expect(response.statusCode == 200)
    }
}

/// A session delegate of an app that cancels every authentication challenge.
private final class CancelChallenges: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}

/// Runs `operation`, cancelling it after `seconds` so that a hang fails the test instead of blocking the run.
func bounded<T: Sendable>(
    seconds: Double = 60, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw BoundedTimeout(seconds: seconds)
        }
        return value
    }
}

/// The operation given to ``bounded(seconds:_:)`` did not finish in time.
struct BoundedTimeout: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "the operation did not finish within \(seconds) s" }
}
