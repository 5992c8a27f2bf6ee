import Foundation
import Testing
import TinyHTTPTransport
import TinyKitTestServer

/// The test servers as a test sees them: what `TestServer` records and answers for exact bytes on the wire, what
/// `RawSocketServer` does with a request body, and whether the behaviour suite's cases can fail.
@Suite(.timeLimit(.minutes(1)))
struct TestInfrastructureEdgeTests {
    // MARK: What TestServer records

    /// FlyingFox keeps the last value of a repeated header: documented in `RecordedRequest.headers`.
    @Test func aHeaderSentTwiceIsRecordedWithItsLastValue() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }

        _ = await rawExchange(port: server.port, get("/echo/twice", headers: ["X-Twice: one", "X-Twice: two"]))

        let seen = try #require(server.requests.first)
        #expect(seen.header("X-Twice") == "two")
    }

    @Test func thePathIsRecordedAsSent() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }

        for path in ["/echo/users/", "/echo/a/./b/../c"] {
            _ = await rawExchange(port: server.port, get(path))
        }

        let paths = server.requests.map(\.path)
        #expect(paths.count == 2)
        #expect(paths == ["/echo/users/", "/echo/a/./b/../c"])
    }

    @Test func requestsOnOneConnectionAreEachRecordedWhole() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let chunked =
            "POST /echo/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "3\r\nabc\r\n2;name=value\r\nde\r\n0\r\nX-Trailer: 1\r\n\r\n"
        let sized = "PUT /echo/2 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\n\r\nxyz"

        let answer = await rawExchange(port: server.port, Data((chunked + sized).utf8) + get("/echo/3"))

        #expect(answer.error == nil)
        #expect(answer.text.components(separatedBy: "HTTP/1.1 200 OK").count == 4)
        #expect(
            server.requests.map { "\($0.method) \($0.path) \($0.bodyText)" } == [
                "POST /echo/1 abcde", "PUT /echo/2 xyz", "GET /echo/3 ",
            ])
    }

    /// Larger than FlyingFox's 2 MiB replay buffer, so the body is streamed from the socket.
    @Test func aBodyLargerThanTheServersBuffersIsRecordedWhole() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let body = TestServer.bytes(count: 3_000_000)
        let head =
            "POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"

        let answer = await rawExchange(port: server.port, Data(head.utf8) + body)

        #expect(answer.text.hasPrefix("HTTP/1.1 404 "))
        let seen = try #require(server.requests.first)
        #expect(seen.body.count == body.count)
        #expect(seen.body.elementsEqual(body))  // not `==`: a failing `==` on 3 MB would diff them byte by byte
    }

    /// The counts come from FlyingFox's log lines, and no Package.resolved pins FlyingFox: a change of wording would
    /// leave both at 0, and `openedConnections == 0` would pass for any transport.
    @Test func connectionsAreCountedWhenOpenedAndClosed() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }

        _ = await rawExchange(port: server.port, get("/echo"))

        #expect(await server.waitForClosedConnections(atLeast: 1, timeout: 10))
        #expect(server.openedConnections == 1)
    }

    // MARK: What TestServer answers

    @Test func aRouteThatThrowsSaysSoInItsAnswer() async throws {
        struct RouteFailure: Error {}
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /fails") { _ in throw RouteFailure() }

        let answer = await rawExchange(port: server.port, get("/fails"))

        #expect(answer.text.hasPrefix("HTTP/1.1 500 "))
        #expect(answer.text.contains("RouteFailure"))
    }

    /// FlyingFox answers a response cancelled by `stop()` with a 500: documented in `TestServer.stop()`.
    ///
    /// The client waits for an answer up to 50 s, not the 10 s of the other exchanges: under ThreadSanitizer, with the
    /// whole suite running, the test process once stalled for about 20 s (trivial tests around it took 27 s) and the
    /// client gave up before the server could answer (the test ended after 29 s with no answer at all).
    @Test func stoppingTheServerAnswersARequestInProgressWith500() async throws {
        let server = try await TestServer.start()
        let pending = Task { await rawExchange(port: server.port, get("/slow?seconds=30"), timeout: 50) }
        _ = await server.waitForRequests(count: 1)

        await server.stopAndWait()
        let answer = await pending.value

        #expect(answer.text.hasPrefix("HTTP/1.1 500 "), "answered: \(answer.text)")
    }

    // MARK: RawSocketServer

    @Test func aRawServerClosesNormallyAfterARequestWithABody() async throws {
        let reply = Data("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8)
        let server = try RawSocketServer.start([.send(reply)])
        defer { server.stop() }
        let head = "POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 20000\r\n\r\n"

        let answer = await rawExchange(port: server.port, Data(head.utf8) + Data(repeating: 0x61, count: 20_000))

        #expect(await server.waitForRequests(atLeast: 1, timeout: 10))
        #expect(answer.error == nil, "errno \(answer.error ?? 0)")
        #expect(answer.bytes == reply)
    }

    // MARK: The behaviour suite can fail

    @Test(arguments: [
        "header with CR or LF is refused as invalidRequest naming it, nothing sent",
        "header name that is not a token is refused as invalidRequest, nothing sent",
    ])
    func aRefusalCaseFailsATransportThatSendsTheRequestAnyway(_ name: String) async throws {
        let check = try #require(TransportBehaviour.cases.first { $0.name == name })

        #expect(await issues(recordedBy: check, against: CarelessTransport()) > 0)
    }

    @Test func theMethodRefusalCaseFailsATransportThatSendsTheRequestAnyway() async throws {
        let name = "method that is not a token is refused as invalidRequest, nothing sent"
        let check = try #require(TransportBehaviour.cases.first { $0.name == name })

        let issues = await issues(recordedBy: check, against: CarelessTransport())

        #expect(issues > 0)
    }

    /// Takes about 20 s: the trickled response of the case runs to its end.
    @Test func theCancellationCaseFailsATransportThatLetsTheResponseRunToItsEnd() async throws {
        let name = "cancelling the awaiting task fails as cancelled and closes the connection"
        let check = try #require(TransportBehaviour.cases.first { $0.name == name })

        let issues = await issues(recordedBy: check, against: CarelessTransport())

        #expect(issues > 0)
    }

    // MARK: bounded

    @Test func boundedGivesUpOnAnOperationThatIgnoresCancellation() async throws {
        let parked = Box<CheckedContinuation<Void, Never>?>(nil)

        await #expect(throws: BoundedTimeout.self) {
            try await bounded(seconds: 0.1) {
                await withCheckedContinuation { continuation in parked.withLock { $0 = continuation } }
                return 1
            }
        }

        // Let the operation end once its continuation is stored.
        while true {
            if let continuation = parked.withLock({ $0.take() }) {
                continuation.resume()
                break
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }
}

// MARK: Helpers

/// The number of issues `check` records against `transport`, an error it throws included (all of them taken as known,
/// so none fails this test).
private func issues(recordedBy check: TransportBehaviourCase, against transport: some HTTPTransport) async -> Int {
    let count = Box(0)
    await withKnownIssue(isIntermittent: true) {
        do {
            try await check.run(transport)
        } catch {
            count.withLock { $0 += 1 }
        }
    } matching: { _ in
        count.withLock { $0 += 1 }
        return true
    }
    return count.withLock { $0 }
}

/// A transport that checks nothing: it writes each request as raw HTTP/1.1 on a connection of its own
/// (`Connection: close`), whatever its method and headers hold, and then reports a request to `/refused` as refused.
/// Cancelled, it throws `cancelled` at once and leaves the exchange running to its end.
private struct CarelessTransport: HTTPTransport {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url, let port = url.port.flatMap(UInt16.init(exactly:)) else {
            throw HTTPTransportError(.invalidRequest, request: request)
        }
        let target = url.path + (url.query.map { "?" + $0 } ?? "")
        var head = "\(request.httpMethod ?? "GET") \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in request.allHTTPHeaderFields ?? [:] { head += "\(name): \(value)\r\n" }
        head += "Connection: close\r\n\r\n"
        let bytes = Data(head.utf8) + (request.httpBody ?? Data())
        let (replies, continuation) = AsyncStream<RawReply>.makeStream()
        Task.detached {
            continuation.yield(await rawExchange(port: port, bytes))
            continuation.finish()
        }
        var reply: RawReply?
        for await received in replies {
            reply = received
            break
        }
        guard let reply else { throw HTTPTransportError(.cancelled, request: request) }
        if url.path == "/refused" {
            throw HTTPTransportError(
                .invalidRequest, request: request, message: "X-Note, a header name or the method is not an HTTP token")
        }
        return try reply.response(to: request)
    }
}

/// A `GET` of `target` with `Connection: close`, as bytes.
private func get(_ target: String, headers: [String] = []) -> Data {
    let lines = ["GET \(target) HTTP/1.1", "Host: 127.0.0.1"] + headers + ["Connection: close", "", ""]
    return Data(lines.joined(separator: "\r\n").utf8)
}

extension RawReply {
    /// The reply as an HTTP response (status line, headers, and the rest as the body).
    func response(to request: URLRequest) throws -> (Data, HTTPURLResponse) {
        let separator = Data("\r\n\r\n".utf8)
        guard let url = request.url, let end = bytes.range(of: separator) else {
            throw HTTPTransportError(.other, request: request, message: "no response head: \(text)")
        }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: fields)
        else { throw HTTPTransportError(.other, request: request, message: "bad status line: \(text)") }
        return (Data(bytes[end.upperBound...]), response)
    }
}

/// A value shared between tasks, behind a lock.
private final class Box<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
