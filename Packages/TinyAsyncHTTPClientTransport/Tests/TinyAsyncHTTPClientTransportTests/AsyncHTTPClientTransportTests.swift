import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyKitTestServer

@testable import TinyAsyncHTTPClientTransport

/// What AsyncHTTPClientTransport adds to the behaviour both transports share: its limits, its defaults, its request
/// checks and its error mapping.
@Suite(.timeLimit(.minutes(2))) struct AsyncHTTPClientTransportTests {
    @Test func bodyOverTheLimitFailsWithTheResponseHead() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /big", response: .text(200, String(repeating: "x", count: 2_000)))

        try await withClient { client in
            let transport = AsyncHTTPClientTransport(client: client, maximumResponseBodySize: 1_000)
            let error = try await #require(throws: HTTPTransportError.self) {
                try await transport.send(URLRequest(url: server.url("/big")))
            }
            #expect(error.code == .other)
            #expect(error.response?.statusCode == 200)
            #expect(error.message?.contains("maximumResponseBodySize, 1000 bytes") == true)
            #expect(error.request?.url == server.url("/big"))

            // The same body fits under a larger limit, on the same client.
            let roomy = AsyncHTTPClientTransport(client: client, maximumResponseBodySize: 2_000)
            let (body, _) = try await roomy.send(URLRequest(url: server.url("/big")))
            #expect(body.count == 2_000)
        }
    }

    /// A request without a timeout (`timeoutInterval` 0) reads its body without the idle timer, under the same limit.
    @Test func withoutATimeoutTheBodyIsReadUnderTheSameLimit() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /big", response: .text(200, String(repeating: "x", count: 2_000)))
        var request = URLRequest(url: server.url("/big"))
        request.timeoutInterval = 0

        try await withClient { client in
            let transport = AsyncHTTPClientTransport(client: client, maximumResponseBodySize: 1_000)
            let error = try await #require(throws: HTTPTransportError.self) { try await transport.send(request) }
            #expect(error.code == .other)
            #expect(error.response?.statusCode == 200)
            #expect(error.message?.contains("maximumResponseBodySize, 1000 bytes") == true)

            let (body, _) = try await AsyncHTTPClientTransport(client: client).send(request)
            #expect(body.count == 2_000)
        }
    }

    /// A negative limit is a caller's slip, not a reason to trap: it accepts empty bodies only.
    @Test func negativeLimitAcceptsOnlyEmptyBodies() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }

        try await withClient { client in
            let transport = AsyncHTTPClientTransport(client: client, maximumResponseBodySize: -5)
            let (empty, response) = try await transport.send(URLRequest(url: server.url("/status/204")))
            #expect(response.statusCode == 204)
            #expect(empty.isEmpty)
            let error = try await #require(throws: HTTPTransportError.self) {
                try await transport.send(URLRequest(url: server.url("/status/200")))
            }
            #expect(error.message?.contains("maximumResponseBodySize, 0 bytes") == true)
        }
    }

    /// A body without `Content-Length` (delimited by the connection's close) has no early hint of its size: the
    /// limit stops it while it streams.
    @Test func streamedBodyOverTheLimitIsCutOff() async throws {
        let head = Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n".utf8)
        let server = try RawSocketServer.start([
            .send(head), .trickle(Data(repeating: 0x79, count: 50), interval: 0.01),
        ])
        defer { server.stop() }

        try await withClient { client in
            let small = AsyncHTTPClientTransport(client: client, maximumResponseBodySize: 10)
            let error = try await #require(throws: HTTPTransportError.self) {
                try await small.send(URLRequest(url: server.url("/stream")))
            }
            #expect(error.code == .other)
            #expect(error.message?.contains("maximumResponseBodySize, 10 bytes") == true)
            #expect(error.response?.statusCode == 200)

            let (body, _) = try await AsyncHTTPClientTransport(client: client).send(
                URLRequest(url: server.url("/stream")))
            #expect(body == Data(repeating: 0x79, count: 50))
        }
    }

    /// The limit counts decompressed bytes: a small gzip body that inflates past it fails.
    @Test func limitAppliesAfterDecompression() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let json = #"{"padding":""# + String(repeating: "a", count: 5_000) + #""}"#
        await server.route("GET /packed", response: .gzippedJSON(200, json))

        try await withClient { client in
            let small = AsyncHTTPClientTransport(client: client, maximumResponseBodySize: 1_000)
            let error = try await #require(throws: HTTPTransportError.self) {
                try await small.send(URLRequest(url: server.url("/packed")))
            }
            #expect(error.message?.contains("maximumResponseBodySize") == true)

            let (body, _) = try await AsyncHTTPClientTransport(client: client).send(
                URLRequest(url: server.url("/packed")))
            #expect(String(decoding: body, as: UTF8.self) == json)
        }
    }

    /// A body that stops arriving fails once no byte came for the request's `timeoutInterval`, well before the
    /// client's read timeout (90 s on `.tinyKit`): the bound is per request.
    @Test func aStalledBodyFailsAfterTheRequestsTimeoutInterval() async throws {
        // The head and one byte of twenty at once, then nothing for 30 s.
        let server = try RawSocketServer.start([
            .send(Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 20\r\n\r\nx".utf8)), .pause(30),
        ])
        defer { server.stop() }

        try await withClient { client in
            var request = URLRequest(url: server.url("/stalled"))
            request.timeoutInterval = 2
            let error = try await #require(throws: HTTPTransportError.self) {
                try await AsyncHTTPClientTransport(client: client).send(request)
            }
            #expect(error.code == .timedOut)
            #expect(error.response?.statusCode == 200)
            #expect(error.message == "no byte of the body came for 2.0 s (the request's timeoutInterval)")
        }
    }

    /// The bound is between bytes, not on the whole body: bytes that keep coming, each sooner than the request's
    /// `timeoutInterval`, are read to the end however long the body takes.
    @Test func aBodyThatKeepsComingOutlastsTheTimeoutInterval() async throws {
        // Twenty-five bytes, one every 0.2 s: 4.8 s in all, past the timeout, with gaps a twentieth of it. A raw
        // server, whose connection has a thread of its own: the test server's tasks share the cooperative pool with
        // the other tests, which delayed its bytes by seconds under the sanitizers. The wide margin is for the
        // reader, which counts a byte when its task runs: under ThreadSanitizer, with the other tests on both cores,
        // it once waited about 2 s for a thread (with a 2 s timeout and 0.25 s gaps, CI of 2026-11-27).
        let server = try RawSocketServer.start([
            .send(Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 25\r\n\r\n".utf8)),
            .trickle(Data(repeating: 0x79, count: 25), interval: 0.2),
        ])
        defer { server.stop() }

        try await withClient { client in
            var request = URLRequest(url: server.url("/trickle"))
            request.timeoutInterval = 4
            let (body, response) = try await AsyncHTTPClientTransport(client: client).send(request)
            #expect(response.statusCode == 200)
            #expect(body == Data(repeating: 0x79, count: 25))
        }
    }

    /// Cancelling the awaiting task once the head is in (while the body is read) fails as cancelled, not as an idle
    /// body, and closes the connection.
    @Test func cancellingWhileTheBodyIsReadFailsAsCancelled() async throws {
        let server = try RawSocketServer.start([
            .send(Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 20\r\n\r\nx".utf8)), .pause(10),
        ])
        defer { server.stop() }

        try await withClient { client in
            let transport = AsyncHTTPClientTransport(client: client)
            let task = Task { try await transport.send(URLRequest(url: server.url("/stalled"))) }
            #expect(await server.waitForRequests())
            // Time for the head to arrive, so that the cancellation reaches the body's reader. Not an assertion: a
            // cancellation that came before the head would end the wait for it, as cancelled too.
            try await Task.sleep(for: .milliseconds(300))
            task.cancel()

            let error = try await #require(throws: HTTPTransportError.self) { try await task.value }
            #expect(error.code == .cancelled)
            #expect(await server.waitForClosedByClient())
        }
    }

    /// With a long `timeoutInterval`, a stalled body is bounded by the client's read timeout.
    @Test func stalledBodyHitsTheClientsReadTimeout() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        var configuration = HTTPClient.Configuration.tinyKit
        configuration.timeout.read = .milliseconds(300)

        try await withClient(configuration) { client in
            let request = URLRequest(url: server.url("/trickle?bytes=20&interval=2"))
            let error = try await #require(throws: HTTPTransportError.self) {
                try await AsyncHTTPClientTransport(client: client).send(request)
            }
            #expect(error.code == .timedOut)
            #expect(error.request?.url == request.url)
        }
    }

    /// The client never follows redirects (`.tinyKit` disallows them); with `followsRedirects: false` the transport
    /// returns them too.
    @Test func aTransportThatFollowsNoRedirectsReturnsTheRedirect() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }

        try await withClient { client in
            let (_, response) = try await AsyncHTTPClientTransport(client: client, followsRedirects: false).send(
                URLRequest(url: server.url("/redirect?to=/echo&status=302")))
            #expect(response.statusCode == 302)
            #expect(response.value(forHTTPHeaderField: "Location") == "/echo")
        }
        #expect(server.requests.map(\.path) == ["/redirect"])
    }

    @Test func theTransportNeverShutsDownTheClientItWasGiven() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }

        try await withClient { client in
            do {
                let transport = AsyncHTTPClientTransport(client: client)
                _ = try await transport.send(URLRequest(url: server.url("/echo")))
            }
            // The transport is gone; the client still sends (and `withClient` shuts it down once, cleanly).
            let response = try await client.execute(
                HTTPClientRequest(url: server.url("/echo").absoluteString), timeout: .seconds(30))
            #expect(response.status == .ok)
            _ = try await response.body.collect(upTo: 1 << 20)
        }
    }

    /// TinyHTTPTransport's middleware reads the error codes, so the retry policy treats both transports alike.
    @Test func retryMiddlewareRetriesStatusesAndRefusedConnections() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let received = Locked(0)
        await server.route("GET /flaky") { _ in
            let number = received.withLock { count in
                count += 1
                return count
            }
            return number <= 2 ? .json(503, #"{"busy":true}"#) : .json(200, #"{"ok":true}"#)
        }
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .zero, jitter: 0)

        try await withClient { client in
            let transport = AsyncHTTPClientTransport(client: client).with(.retry(policy))
            let (body, response) = try await transport.send(URLRequest(url: server.url("/flaky")))
            #expect(response.statusCode == 200)
            #expect(String(decoding: body, as: UTF8.self) == #"{"ok":true}"#)
            #expect(server.requests.count == 3)

            let refused = try #require(URL(string: "http://127.0.0.1:1/none"))
            let error = try await #require(throws: HTTPTransportError.self) {
                try await transport.send(URLRequest(url: refused))
            }
            #expect(error.code == .cannotConnect)
            #expect(error.attempts == 3)
        }
    }

    /// A status that persists through the retries is thrown with the last response and body and the attempts made.
    @Test func retryMiddlewareThrowsAPersistingStatusWithItsAttempts() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /busy", response: .json(503, #"{"busy":true}"#))

        try await withClient { client in
            let transport = AsyncHTTPClientTransport(client: client)
                .with(.retry(RetryPolicy(maxAttempts: 3, baseDelay: .zero, jitter: 0)))
            let error = try await #require(throws: HTTPTransportError.self) {
                try await transport.send(URLRequest(url: server.url("/busy")))
            }
            #expect(error.code == .unacceptableStatus(503))
            #expect(error.attempts == 3)
            #expect(error.response?.statusCode == 503)
            #expect(error.body == Data(#"{"busy":true}"#.utf8))
            #expect(error.request?.url == server.url("/busy"))
        }
        #expect(server.requests.count == 3)
    }

    /// With AsyncHTTPClient's default (retrying connection establishment) this would wait for the whole 600 s
    /// deadline and hit the test's time limit.
    @Test(.timeLimit(.minutes(1))) func refusedConnectionFailsAtOnceDespiteALongTimeout() async throws {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:1/none")))
        request.timeoutInterval = 600

        let error = try await #require(throws: HTTPTransportError.self) {
            try await AsyncHTTPClientTransport.shared.send(request)
        }

        #expect(error.code == .cannotConnect)
    }

    @Test func requestsAskForCompressionAndNameTheirAgent() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        var named = URLRequest(url: server.url("/echo"))
        named.setValue("MyApp/2", forHTTPHeaderField: "User-Agent")

        _ = try await AsyncHTTPClientTransport.shared.send(URLRequest(url: server.url("/echo")))
        _ = try await AsyncHTTPClientTransport.shared.send(named)

        let seen = server.requests
        #expect(seen.count == 2)
        #expect(seen.first?.header("Accept-Encoding")?.contains("gzip") == true)
        #expect(seen.first?.header("User-Agent") == "TinyKit AsyncHTTPClientTransport")
        #expect(seen.last?.header("User-Agent") == "MyApp/2")
    }

    @Test func urlCredentialsBecomeBasicAuthorization() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let port = try #require(server.baseURL.port)
        let url = try #require(URL(string: "http://user:pass@127.0.0.1:\(port)/auth/basic"))
        var own = URLRequest(url: url)
        own.setValue("Basic d3Jvbmc6d3Jvbmc=", forHTTPHeaderField: "Authorization")

        let (_, authorized) = try await AsyncHTTPClientTransport.shared.send(URLRequest(url: url))
        let (_, refused) = try await AsyncHTTPClientTransport.shared.send(own)

        #expect(authorized.statusCode == 200)
        #expect(refused.statusCode == 401)
    }

    /// Schemes are case-insensitive: `HTTP://` is sent like `http://`.
    @Test func anUppercaseSchemeIsSent() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let port = try #require(server.baseURL.port)
        let url = try #require(URL(string: "HTTP://127.0.0.1:\(port)/echo"))

        let (_, response) = try await AsyncHTTPClientTransport.shared.send(URLRequest(url: url))

        #expect(response.statusCode == 200)
        #expect(server.requests.map(\.path) == ["/echo"])
    }

    /// The request's own `Authorization` and `User-Agent` are kept, alone, whatever the case of their names.
    /// (`setValue(_:forHTTPHeaderField:)` would capitalize the names; `allHTTPHeaderFields` keeps them as given.)
    @Test func ownAuthorizationAndAgentAreKeptWhateverTheCaseOfTheirNames() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let port = try #require(server.baseURL.port)
        var request = URLRequest(url: try #require(URL(string: "http://user:pass@127.0.0.1:\(port)/echo")))
        request.allHTTPHeaderFields = ["authorization": "Bearer t0ken", "user-agent": "MyApp/2"]

        _ = try await AsyncHTTPClientTransport.shared.send(request)

        let seen = try #require(server.requests.first)
        #expect(seen.header("Authorization") == "Bearer t0ken")
        #expect(seen.header("User-Agent") == "MyApp/2")
    }

    /// A user without a password is sent with an empty one.
    @Test func aURLUserWithoutPasswordIsSentWithAnEmptyPassword() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let port = try #require(server.baseURL.port)
        let url = try #require(URL(string: "http://ada@127.0.0.1:\(port)/echo"))

        _ = try await AsyncHTTPClientTransport.shared.send(URLRequest(url: url))

        #expect(server.requests.first?.header("Authorization") == "Basic \(Data("ada:".utf8).base64EncodedString())")
    }

    /// `URL.password` is percent-encoded (`URL.user` is not): a password with a reserved character, which the URL must
    /// percent-encode, was sent encoded (URLSessionTransport sends it decoded). The user is sent decoded too.
    /// A password that is not UTF-8 once decoded (`%FF`) is sent as it came rather than as an empty one.
    @Test(arguments: [("ada%40home:p%40ss%3Aw", "ada@home:p@ss:w"), ("ada:%FF", "ada:%FF")])
    func aPercentEncodedURLPasswordIsSentDecoded(userInfo: String, credentials: String) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let port = try #require(server.baseURL.port)
        let url = try #require(URL(string: "http://\(userInfo)@127.0.0.1:\(port)/echo"))

        _ = try await AsyncHTTPClientTransport.shared.send(URLRequest(url: url))

        let sent = server.requests.first?.header("Authorization")
        #expect(sent == "Basic \(Data(credentials.utf8).base64EncodedString())")
    }

    @Test(arguments: [301, 302])
    func postRedirectedBy301Or302ContinuesAsGet(status: Int) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        var request = URLRequest(method: .post, url: server.url("/redirect?to=/echo/next&status=\(status)"))
        request.httpBody = Data("form".utf8)

        let (body, response) = try await AsyncHTTPClientTransport.shared.send(request)

        #expect(response.statusCode == 200)
        #expect(response.url?.path == "/echo/next")
        let seen = try JSONDecoder().decode(RecordedRequest.self, from: body)
        #expect(seen.method == "GET")
        #expect(seen.body.isEmpty)
    }

    /// A `307` keeps the method, the body and the headers; to another origin (another port here) without
    /// credentials; a `303` after `HEAD` stays `HEAD`.
    @Test func redirectsKeepTheRequestAndDropCredentialsOnlyForAnotherOrigin() async throws {
        let (first, other) = (try await TestServer.start(), try await TestServer.start())
        defer {
            first.stop()
            other.stop()
        }
        await first.route("PUT /here", response: .redirect(to: "/echo/here", status: 307))
        await first.route("PUT /away", response: .redirect(to: other.url("/echo/away").absoluteString, status: 307))
        await first.route("HEAD /seen", response: .redirect(to: "/echo/seen", status: 303))
        func send(_ path: String, _ method: TinyHTTPTransport.HTTPMethod = .put) async throws {
            var request = URLRequest(method: method, url: first.url(path))
            request.httpBody = method == .put ? Data("body".utf8) : nil
            for name in ["Authorization", "Cookie", "X-API-Key", "X-Trace"] {
                request.setValue("v-\(name)", forHTTPHeaderField: name)
            }
            _ = try await AsyncHTTPClientTransport.shared.send(request)
        }

        try await send("/here")
        try await send("/away")
        try await send("/seen", .head)

        let here = try #require(first.requests.first { $0.path == "/echo/here" })
        #expect(here.method == "PUT" && here.body == Data("body".utf8))
        #expect(here.header("Authorization") == "v-Authorization" && here.header("Cookie") == "v-Cookie")
        #expect(here.header("X-API-Key") == "v-X-API-Key")
        let away = try #require(other.requests.first)
        #expect(away.method == "PUT" && away.body == Data("body".utf8) && away.header("X-Trace") == "v-X-Trace")
        #expect(away.header("Authorization") == nil && away.header("Cookie") == nil && away.header("X-API-Key") == nil)
        #expect(first.requests.last.map { "\($0.method) \($0.path)" } == "HEAD /echo/seen")
    }

    @Test func moreThanTwentyRedirectsFail() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /hop/:n") { request in
            let next = (Int(request.path.split(separator: "/").last ?? "") ?? 0) + 1
            return .redirect(to: "/hop/\(next)")
        }

        let error = try await #require(throws: HTTPTransportError.self) {
            try await AsyncHTTPClientTransport.shared.send(URLRequest(url: server.url("/hop/0")))
        }

        #expect(error.code == .other)
        #expect(server.requests.count == 21)
    }

    /// `.tinyKit` allows no cycles: a redirect back to a URL already visited fails at once, not after 20 hops.
    @Test func aRedirectCycleFailsAtOnce() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /loop", response: .redirect(to: "/loop"))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await AsyncHTTPClientTransport.shared.send(URLRequest(url: server.url("/loop")))
        }

        #expect(error.code == .other)
        #expect((error.underlyingError as? HTTPClientError) == .redirectCycleDetected)
        #expect(server.requests.count == 1)
    }

    /// AsyncHTTPClient learns of a cancellation only after it has queued the request: a task cancelled before it
    /// sends must not open a connection.
    @Test func aTaskCancelledBeforeSendingOpensNoConnection() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }

        try await withClient { client in
            let transport = AsyncHTTPClientTransport(client: client)
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await transport.send(URLRequest(url: server.url("/echo")))
            }
            let error = try await #require(throws: HTTPTransportError.self) { try await task.value }
            #expect(error.code == .cancelled)
        }
        // A connection of the test's own, answered: the server counts connections in the order it accepts them, so one
        // the cancelled send opened would be counted by now (read at once, the counter could lag behind it).
        _ = try await URLSessionTransport(configuration: .ephemeral).send(URLRequest(url: server.url("/echo/after")))
        #expect(server.openedConnections == 1)
    }

    @Test(arguments: [0, -1, .nan, .infinity, 1e300])
    func timeoutsThatAreNoPositiveNumberOfSecondsMeanNoDeadline(seconds: Double) throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com")))
        request.timeoutInterval = seconds

        #expect(AsyncHTTPClientTransport.timeout(of: request) == nil)
    }

    @Test func theTimeoutIsTheTimeoutInterval() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com")))
        request.timeoutInterval = 2.5

        #expect(AsyncHTTPClientTransport.timeout(of: request) == .milliseconds(2_500))
    }

    @Test func sharedTransportSendsWithTheSharedClient() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }

        let (body, response) = try await AsyncHTTPClientTransport.shared.send(URLRequest(url: server.url("/echo/x")))

        #expect(AsyncHTTPClientTransport.shared.client === AsyncHTTPClientTransport.sharedClient)
        #expect(response.statusCode == 200)
        #expect(try JSONDecoder().decode(RecordedRequest.self, from: body).path == "/echo/x")
    }

    /// Redirects and decompression of `.tinyKit` are checked by the behaviour suite and by
    /// `limitAppliesAfterDecompression` (a body that inflates 100 times, past `HTTPClient.shared`'s ratio limit).
    @Test func tinyKitConfigurationDoesNotRetryConnecting() {
        #expect(HTTPClient.Configuration.tinyKit.connectionPool.retryConnectionEstablishment == false)
        #expect(HTTPClient.Configuration.singletonConfiguration.connectionPool.retryConnectionEstablishment)
    }

    /// The documented timeouts of `.tinyKit`: 90 s to connect and between reads.
    @Test func tinyKitConfigurationWaitsNinetySecondsToConnectAndBetweenReads() {
        #expect(HTTPClient.Configuration.tinyKit.timeout.connect == .seconds(90))
        #expect(HTTPClient.Configuration.tinyKit.timeout.read == .seconds(90))
    }

    /// A megabyte of zeros, gzip-compressed to about 1 KB: it inflates about 1,000 times, past the ratio limit of
    /// `.tinyKit` (200), though it is far under `maximumResponseBodySize`.
    @Test func aDecompressionBombIsRefusedByTheRatioLimit() async throws {
        // Base64 of the gzip stream: a short head, a run of zero bytes (`A`s), the deflate end and the trailer.
        let base64 = "H4sIABgVBWsC/+3BAQEAAACCIP+vbkhAAQ" + String(repeating: "A", count: 1290) + "rwaey3kSQEIPAA=="
        let bomb = try #require(Data(base64Encoded: base64))
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route(
            "GET /bomb",
            response: TestResponse(
                status: 200, headers: ["Content-Type": "application/octet-stream", "Content-Encoding": "gzip"],
                body: bomb))

        try await withClient { client in
            let error = try await #require(throws: HTTPTransportError.self) {
                try await AsyncHTTPClientTransport(client: client).send(URLRequest(url: server.url("/bomb")))
            }
            #expect(error.code == .other)
            #expect(error.message == "the response body inflates past the client's decompression limit")
        }
    }

    @Test func headersThatDifferOnlyByCaseAreJoinedAndCookiesStaySeparable() async throws {
        let raw = try RawSocketServer.start([
            .send(
                Data(
                    ("HTTP/1.1 200 OK\r\nX-Tag: a\r\nx-tag: b\r\nSet-Cookie: first=1; Path=/\r\n"
                        + "set-cookie: second=2; Path=/\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok").utf8))
        ])
        defer { raw.stop() }

        try await withClient { client in
            let (_, response) = try await AsyncHTTPClientTransport(client: client).send(URLRequest(url: raw.baseURL))
            #expect(response.value(forHTTPHeaderField: "X-TAG") == "a, b")
            let names = response.allHeaderFields.keys.compactMap { $0 as? String }.filter { $0.lowercased() == "x-tag" }
            #expect(names == ["X-Tag"])
            let fields = response.allHeaderFields.reduce(into: [String: String]()) { $0["\($1.key)"] = "\($1.value)" }
            let cookies = HTTPCookie.cookies(withResponseHeaderFields: fields, for: raw.baseURL)
            #expect(cookies.map { "\($0.name)=\($0.value)" } == ["first=1", "second=2"])
        }
    }

    @Test func fieldNamesMatchLettersInEitherCaseAndNothingElse() {
        #expect(AsyncHTTPClientTransport.sameFieldName("Set-Cookie", "set-COOKIE"))
        #expect(AsyncHTTPClientTransport.sameFieldName("X-1_a", "x-1_A"))
        // `^` and `~` differ only in the bit that lower-cases letters; `_` and DEL too.
        #expect(!AsyncHTTPClientTransport.sameFieldName("X^", "X~"))
        #expect(!AsyncHTTPClientTransport.sameFieldName("X_", "X\u{7F}"))
        #expect(!AsyncHTTPClientTransport.sameFieldName("ETag", "ETags"))
        #expect(!AsyncHTTPClientTransport.sameFieldName("Vary", "Varz"))
    }

    @Test func repeatedResponseHeadersAreJoined() async throws {
        // A raw reply, because the test server's headers are a dictionary.
        let raw = try RawSocketServer.start([
            .send(
                Data("HTTP/1.1 200 OK\r\nX-Tag: a\r\nX-Tag: b\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8)
            )
        ])
        defer { raw.stop() }

        try await withClient { client in
            let (body, response) = try await AsyncHTTPClientTransport(client: client).send(URLRequest(url: raw.baseURL))
            #expect(response.value(forHTTPHeaderField: "x-tag") == "a, b")
            #expect(String(decoding: body, as: UTF8.self) == "ok")
        }
    }

    /// Every request the transport refuses before sending, by its own checks or AsyncHTTPClient's.
    enum Refusal: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case headerNameNotAToken, nonASCIIHeaderName, emptyHeaderName
        case headerValueWithCRLF, headerValueWithControlCharacter, headerValueWithDEL
        case methodNotAToken, ftpScheme, unixSocketScheme, noHost, traceWithBody, bodyStream, noURL

        var testDescription: String { rawValue }

        /// The refused request; `server` is where it would go if it were sent. Header values hold `s3cr3t`, which no
        /// error may print.
        func request(to server: TestServer) -> URLRequest {
            var request = URLRequest(url: server.url("/refused"))
            switch self {
            case .headerNameNotAToken: request.allHTTPHeaderFields = ["Bad Name": "x"]
            case .nonASCIIHeaderName: request.allHTTPHeaderFields = ["Ä-Name": "x"]
            case .emptyHeaderName: request.allHTTPHeaderFields = ["": "x"]
            case .headerValueWithCRLF: request.allHTTPHeaderFields = ["X-Secret": "s3cr3t\r\nX-Injected: yes"]
            case .headerValueWithControlCharacter: request.allHTTPHeaderFields = ["X-Secret": "s3cr3t\u{1}"]
            case .headerValueWithDEL: request.allHTTPHeaderFields = ["X-Secret": "s3cr3t\u{7F}"]
            case .methodNotAToken: request.httpMethod = "GET\r\nX-Injected: 1\r\nX:"
            case .ftpScheme: request.url = URL(string: "ftp://127.0.0.1:\(server.baseURL.port ?? 0)/refused")
            case .unixSocketScheme: request.url = URL(string: "http+unix://%2Ftmp%2Fsocket/refused")
            case .noHost: request.url = URL(string: "http:///refused")
            case .traceWithBody: (request.httpMethod, request.httpBody) = ("TRACE", Data("x".utf8))
            case .bodyStream: (request.httpMethod, request.httpBodyStream) = ("POST", InputStream(data: Data("x".utf8)))
            case .noURL: request.url = nil
            }
            return request
        }

        /// What the error's description says of the refusal.
        var reason: String {
            switch self {
            case .headerNameNotAToken, .nonASCIIHeaderName, .emptyHeaderName, .methodNotAToken: "is not an HTTP token"
            case .headerValueWithCRLF: "contains CR, LF or NUL"
            case .headerValueWithControlCharacter, .headerValueWithDEL: "contains a control character"
            case .ftpScheme, .unixSocketScheme: "sends http and https URLs only"
            case .noHost: "http:///refused"
            case .traceWithBody: "traceRequestWithBody"
            case .bodyStream: "does not send an httpBodyStream"
            case .noURL: "the request has no URL"
            }
        }
    }

    @Test(arguments: Refusal.allCases)
    func aRefusedRequestIsAnInvalidRequestThatCarriesTheRequest(_ refusal: Refusal) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let request = refusal.request(to: server)
        #expect((request.url == nil) == (refusal == .noURL))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await AsyncHTTPClientTransport.shared.send(request)
        }

        #expect(error.code == .invalidRequest)
        #expect(error.request == request)
        #expect(error.description.contains(refusal.reason), "\(error)")
        #expect(!error.description.contains("s3cr3t"))
        #expect(server.requests.isEmpty)
    }

    @Test(arguments: [
        (HTTPClientError.cancelled, HTTPTransportError.Code.cancelled),
        (.deadlineExceeded, .timedOut), (.readTimeout, .timedOut), (.connectTimeout, .timedOut),
        (.tlsHandshakeTimeout, .timedOut), (.remoteConnectionClosed, .cannotConnect), (.emptyHost, .invalidRequest),
        (.unsupportedScheme("gopher"), .invalidRequest), (.invalidHeaderFieldNames(["a b"]), .invalidRequest),
        (.invalidHeaderFieldValues(["v"]), .invalidRequest), (.traceRequestWithBody, .invalidRequest),
        (.redirectLimitReached, .other), (.redirectCycleDetected, .other), (.bodyLengthMismatch, .other),
        (.alreadyShutdown, .other), (.writeTimeout, .timedOut), (.getConnectionFromPoolTimeout, .timedOut),
        (.socksHandshakeTimeout, .timedOut), (.httpProxyHandshakeTimeout, .timedOut), (.invalidURL, .invalidRequest),
        (.emptyScheme, .invalidRequest), (.missingSocketPath, .invalidRequest),
    ])
    func clientErrorsMapToTheURLSessionCategories(_ error: HTTPClientError, _ code: HTTPTransportError.Code) throws {
        let request = try #require(URL(string: "https://api.example.com/users")).request()

        let mapped = AsyncHTTPClientTransport.transportError(for: error, request: request)

        #expect(mapped.code == code)
        #expect(mapped.request == request)
        #expect((mapped.underlyingError as? HTTPClientError) == error)
    }

    @Test func nioErrorsMapToTheURLSessionCategories() throws {
        let request = try #require(URL(string: "https://api.example.com/users")).request()
        let cases: [(any Error, HTTPTransportError.Code)] = [
            (IOError(errnoCode: ECONNREFUSED, reason: "connect"), .cannotConnect),
            (ChannelError.connectTimeout(.seconds(1)), .timedOut),
            (ChannelError.eof, .cannotConnect),
            (ChannelError.ioOnClosedChannel, .cannotConnect),
            (ChannelError.alreadyClosed, .cannotConnect),
            (ChannelError.outputClosed, .cannotConnect),
            (HTTPParserError.invalidVersion, .other),
            (CancellationError(), .cancelled),
            (CocoaError(.fileNoSuchFile), .other),
        ]
        for (error, code) in cases {
            #expect(AsyncHTTPClientTransport.transportError(for: error, request: request).code == code, "\(error)")
        }
        #expect(
            AsyncHTTPClientTransport.transportError(for: HTTPParserError.invalidVersion, request: request).message
                == "the reply is not valid HTTP")
    }

    /// The two client errors whose own descriptions say little get a message of their own.
    @Test func aMissedDeadlineAndAnEarlyCloseAreExplained() throws {
        let request = try #require(URL(string: "https://api.example.com/users")).request()

        let late = AsyncHTTPClientTransport.transportError(for: HTTPClientError.deadlineExceeded, request: request)
        let closed = AsyncHTTPClientTransport.transportError(
            for: HTTPClientError.remoteConnectionClosed, request: request)

        #expect(late.message == "no response head within the request's timeoutInterval")
        #expect(closed.message == "the server closed the connection before the response was complete")
    }

    @Test func transportErrorsPassThroughWithTheirRequest() throws {
        let request = try #require(URL(string: "https://api.example.com/users")).request()
        let original = HTTPTransportError(.invalidRequest, message: "the header X is bad")

        let mapped = AsyncHTTPClientTransport.transportError(for: original, request: request)

        #expect(mapped.code == .invalidRequest)
        #expect(mapped.message == "the header X is bad")
        #expect(mapped.request == request)
    }
}

extension URL {
    fileprivate func request() -> URLRequest { URLRequest(url: self) }
}
