import AsyncHTTPClient
import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyKitTestServer

@testable import TinyAsyncHTTPClientTransport

/// Bugs found by the AsyncHTTPClientTransport hunt: regression tests now (open ones: `withKnownIssue`).
@Suite(.timeLimit(.minutes(1))) struct HuntTests {
    /// A `304` is no redirect, whatever headers it carries: URLSession returns it (checked on Linux), AsyncHTTPClient
    /// follows its `Location` (and fails with a redirect cycle when that is the request's own URL).
    @Test func aNotModifiedResponseWithALocationIsReturnedNotFollowed() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route(
            "GET /users/7", response: TestResponse(status: 304, headers: ["Location": "/echo/moved", "ETag": "\"1\""]))
        await server.route("GET /self", response: TestResponse(status: 304, headers: ["Location": "/self"]))

        try await withClient { client in
            let transport = AsyncHTTPClientTransport(client: client)
            let (_, moved) = try await transport.send(URLRequest(url: server.url("/users/7")))
            #expect(moved.statusCode == 304)
            let (_, same) = try await transport.send(URLRequest(url: server.url("/self")))
            #expect(same.statusCode == 304)
        }
    }

    /// A reply whose connection closes before it is complete (its body short of `Content-Length`, a chunked body
    /// without its last chunk, a head cut off) is "connection closed before the response was complete"
    /// (`.cannotConnect`, the Getting Started table), as a reset there already is, and so retryable; it came as
    /// `.other`, "the reply is not valid HTTP" (SwiftNIO's `HTTPParserError.invalidEOFState`).
    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nabc",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", "HTTP/1.1 200 OK\r\nContent-Le",
    ])
    func aReplyCutOffByTheServerClosingIsCannotConnect(_ reply: String) async throws {
        let server = try RawSocketServer.start([.send(Data(reply.utf8)), .pause(0.2)])
        defer { server.stop() }

        try await withClient { client in
            let error = try await #require(throws: HTTPTransportError.self) {
                try await AsyncHTTPClientTransport(client: client).send(URLRequest(url: server.url("/cut")))
            }
            #expect(error.code == .cannotConnect)
            #expect(error.message?.contains("not valid HTTP") != true)
            // The head, when it came whole, is kept, as URLSession keeps it (it was dropped).
            #expect(error.response?.statusCode == (reply.contains("\r\n\r\n") ? 200 : nil))
        }
    }

    /// An empty body with `Content-Encoding: gzip` is common: the answer to `HEAD` for a resource served compressed,
    /// a `304` of one, an empty `200`. URLSession returns them (checked on Linux); the response decompressor of
    /// `.tinyKit` fails each as truncated gzip data (`.other`).
    @Test(arguments: ["HEAD /packed", "GET /not-modified", "GET /empty"])
    func anEmptyBodyMarkedGzipIsAnEmptyBody(_ route: String) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET,HEAD /packed", response: .gzippedJSON(200, #"{"compressed":true}"#))
        let gzip = ["Content-Encoding": "gzip", "ETag": "\"1\""]
        await server.route("GET /not-modified", response: TestResponse(status: 304, headers: gzip))
        await server.route("GET /empty", response: TestResponse(status: 200, headers: gzip))
        let parts = route.split(separator: " ")
        var request = URLRequest(url: server.url(String(parts[1])))
        request.httpMethod = String(parts[0])

        try await withClient { client in
            let (body, response) = try await AsyncHTTPClientTransport(client: client).send(request)
            #expect(body.isEmpty)
            #expect(response.value(forHTTPHeaderField: "Content-Encoding") == "gzip")
        }
    }

    /// The same, framed as chunks: no `Content-Length` tells it is empty.
    @Test func anEmptyChunkedBodyMarkedGzipIsAnEmptyBody() async throws {
        let reply = "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        let server = try RawSocketServer.start([.send(Data(reply.utf8)), .pause(0.5)])
        defer { server.stop() }

        try await withClient { client in
            let (body, response) = try await AsyncHTTPClientTransport(client: client).send(
                URLRequest(url: server.url("/empty")))
            #expect(body.isEmpty)
            #expect(response.statusCode == 200)
        }
    }

    /// `maximumResponseBodySize` bounds the body after decompression (its documentation). Without a timeout
    /// (`timeoutInterval` 0) the body is read by `HTTPClientResponse.Body.collect(upTo:)`, which first compares the
    /// `Content-Length`, the compressed size, with the limit: a 2-byte body gzip-compressed to 25 bytes was refused
    /// under a limit of 10 (with a timeout it is accepted).
    @Test func withoutATimeoutTheLimitCountsDecompressedBytes() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /tiny", response: .gzippedJSON(200, "{}"))
        var request = URLRequest(url: server.url("/tiny"))

        try await withClient { client in
            let transport = AsyncHTTPClientTransport(client: client, maximumResponseBodySize: 10)
            let (timed, _) = try await transport.send(request)
            #expect(timed == Data("{}".utf8))

            request.timeoutInterval = 0
            let (body, _) = try await transport.send(request)
            #expect(body == Data("{}".utf8))
        }
    }
    /// A URL's port is not checked against 65535 by `URL` (`http://127.0.0.1:70000/` parses, port 70000), and
    /// SwiftNIO converts an IP address's port with `in_port_t(port)`, which traps: the process crashes instead of
    /// failing the request, URLSession fails it. A redirect's `Location` with such a port crashes it too, so any
    /// server the process talks to can bring it down.
    @Test func aPortOver65535FailsTheRequestInsteadOfCrashing() async {
        await #expect(processExitsWith: .success) {
            let url = URL(string: "http://127.0.0.1:70000/x") ?? URL(fileURLWithPath: "/")
            do {
                _ = try await AsyncHTTPClientTransport.shared.send(URLRequest(url: url))
                exit(1)  // sent somewhere
            } catch {
                if (error as? HTTPTransportError)?.code != .invalidRequest { exit(2) }
            }
        }
    }

    /// AsyncHTTPClient's own following traps in SwiftNIO (`in_port_t(port)`) on such a redirect, and cuts a host
    /// name's port to 16 bits: the transport follows redirects itself and checks each target as a request's URL.
    @Test(arguments: ["http://127.0.0.1:70000/x", "http://localhost:70000/x", "http://[::1]:99999999999999999999/x"])
    func aRedirectToAPortOver65535FailsTheRequestInsteadOfCrashing(target: String) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /away", response: .redirect(to: target))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await AsyncHTTPClientTransport.shared.send(URLRequest(url: server.url("/away")))
        }

        #expect(error.code == .other)
        #expect(error.message?.hasPrefix("a redirect was refused: the port") == true)
        #expect(server.requests.map(\.path) == ["/away"])
    }
    /// A port too large for an `Int` parses as no port at all: AsyncHTTPClient sent to the scheme's default port.
    @Test(arguments: ["http://127.0.0.1:99999999999999999999/x", "http://user:pw@[::1]:99999999999999999999/x"])
    func aPortTooLargeForAnIntIsRefusedNotSentToTheDefaultPort(url: String) async throws {
        let request = URLRequest(url: try #require(URL(string: url)))
        let error = try await #require(throws: HTTPTransportError.self) {
            try await AsyncHTTPClientTransport.shared.send(request)
        }
        #expect(error.code == .invalidRequest)
        #expect(error.message?.contains("is not a TCP port") == true)
        #expect(error.message?.contains("pw") == false)
    }

    /// With a host name, the same port is cut to 16 bits instead: `localhost:<port + 65536>` reaches `<port>`.
    /// URLSession refuses the URL (URLError -1000, `.invalidRequest`).
    @Test func aPortOver65535ForAHostNameIsRefusedNotWrappedAround() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let url = try #require(URL(string: "http://localhost:\(Int(server.port) + 65_536)/echo"))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await AsyncHTTPClientTransport.shared.send(URLRequest(url: url))
        }
        #expect(error.code == .invalidRequest)
        #expect(server.requests.isEmpty)
    }
}
