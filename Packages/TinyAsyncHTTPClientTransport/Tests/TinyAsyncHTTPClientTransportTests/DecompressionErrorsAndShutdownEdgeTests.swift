import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyKitTestServer

@testable import TinyAsyncHTTPClientTransport

/// Edges of the response decompression (`.tinyKit`'s ratio limit, content codings), of request bodies, of the error
/// codes of failures the Getting Started table names (unknown host, TLS, cancellation while waiting for the head) and of
/// a client shut down under its transport, each compared with what `URLSessionTransport` does on this Linux machine.
@Suite(.timeLimit(.minutes(1))) struct DecompressionErrorsAndShutdownEdgeTests {
    // MARK: Decompression

    /// `{"a":"` and 60,000 `a`s, gzip-compressed (zlib level 9, then a full flush): 96 bytes, the gzip header included.
    static let compressedRun =
        Data(
            base64Encoded: "H4sIAAAAAAACA+zBMQEAAAgDoC6LYZvlsLw1PIBNMykA" + String(repeating: "A", count: 74)
                + "DAMwcAAP//") ?? Data()

    /// A gzip body of 1,111 bytes for a JSON text of 61,008 (`{"a":"`, 60,000 `a`s, 1,000 `b`s, `"}`): 55 times its
    /// compressed size. The first 96 bytes hold the run of `a`s; the `b`s follow in a stored (uncompressed) block.
    static func gzipBody() -> (prefix: Data, rest: Data, text: String) {
        let tail = Data((String(repeating: "b", count: 1_000) + #""}"#).utf8)
        let text = #"{"a":""# + String(repeating: "a", count: 60_000) + String(decoding: tail, as: UTF8.self)
        var rest = Data([0x01])  // BFINAL, stored
        for value in [UInt16(tail.count), ~UInt16(tail.count)] { rest.append(contentsOf: littleEndian(value)) }
        rest.append(tail)
        rest.append(contentsOf: littleEndian(crc32(Data(text.utf8))))
        rest.append(contentsOf: littleEndian(UInt32(text.utf8.count)))
        return (compressedRun, rest, text)
    }

    /// `.tinyKit`'s ratio limit: swift-nio-extras compares the bytes inflated so far with the compressed bytes
    /// received so far, so a 55-times body passes when it arrives in one read and fails when its compressible start
    /// arrives first. The docs said "a body that inflates to more than 200 times its compressed size"; they say now
    /// that the ratio is checked at each read (the limit issue 19 asks for), and this pins it.
    @Test func aBodyWhoseStartInflatesPastTheRatioFailsEvenIfTheWholeWouldNot() async throws {
        let (prefix, rest, text) = Self.gzipBody()
        #expect(Double(text.utf8.count) / Double(prefix.count + rest.count) < 60)
        let head = Data(
            ("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(prefix.count + rest.count)\r\n"
                + "Connection: close\r\n\r\n").utf8)
        let whole = try RawSocketServer.start([.send(head + prefix + rest)])
        let split = try RawSocketServer.start([.send(head + prefix), .pause(1), .send(rest)])
        defer {
            whole.stop()
            split.stop()
        }

        try await withClient { client in
            let transport = AsyncHTTPClientTransport(client: client)
            let (body, _) = try await transport.send(URLRequest(url: whole.url("/whole")))
            #expect(String(decoding: body, as: UTF8.self) == text)

            var failure: HTTPTransportError?
            do {
                let (body, _) = try await transport.send(URLRequest(url: split.url("/split")))
                #expect(String(decoding: body, as: UTF8.self) == text)
            } catch let error as HTTPTransportError {
                failure = error
            }
            // Documented: the ratio is of the compressed bytes received so far, checked at each read.
            let error = try #require(failure)
            #expect(error.message == "the response body inflates past the client's decompression limit")
        }
    }

    /// A client configured with another decompression limit (here a size, 1,000 bytes) fails a body past it with
    /// `DecompressionError.limit`, which the transport explained with `.tinyKit`'s ratio: "inflates to more than
    /// 200 times its compressed size", for a body that did not inflate at all (stored gzip blocks).
    @Test func anotherClientsDecompressionLimitIsNotDescribedAsTinyKitsRatio() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let json = #"{"padding":""# + String(repeating: "p", count: 2_000) + #""}"#
        await server.route("GET /packed", response: .gzippedJSON(200, json))  // stored blocks: no smaller than the JSON
        var configuration = HTTPClient.Configuration.tinyKit
        configuration.decompression = .enabled(limit: .size(1_000))

        try await withClient(configuration) { client in
            let error = try await #require(throws: HTTPTransportError.self) {
                try await AsyncHTTPClientTransport(client: client).send(URLRequest(url: server.url("/packed")))
            }
            #expect(error.code == .other)
            #expect(error.message == "the response body inflates past the client's decompression limit")
        }
    }

    /// RFC 9110 §8.4.1.3: a recipient should treat `x-gzip` as `gzip`. URLSession (libcurl) decodes it; the transport,
    /// which says it decompresses gzip "as URLSession does", returns the compressed bytes as the body, no error.
    @Test(arguments: TransportUnderTest.allCases)
    func anXGzipBodyIsDecoded(_ kind: TransportUnderTest) async throws {
        let packed = TestResponse.gzippedJSON(200, #"{"a":1}"#).body
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: x-gzip\r\n"
            + "Content-Length: \(packed.count)\r\nConnection: close\r\n\r\n"
        let server = try RawSocketServer.start([.send(Data(head.utf8) + packed)])
        defer { server.stop() }

        try await kind.with { transport in
            let (body, _) = try await transport.send(URLRequest(url: server.url("/x-gzip")))
            withKnownIssue("x-gzip is not decoded: the gzip bytes come back as the body") {
                #expect(String(decoding: body, as: UTF8.self) == #"{"a":1}"#)
            } when: {
                kind == .asyncHTTPClient
            }
        }
    }

    // MARK: Request bodies

    /// A body on a `GET` or `HEAD` has no defined meaning (RFC 9110 §9.3.1–2: it "might lead some implementations to
    /// reject the request and close the connection because of its potential as a request smuggling attack").
    /// URLSessionTransport never sends one: it fails the `GET` (nothing sent) and sends the `HEAD` without it. The
    /// transport, documented to behave like it, sent both with the body and its `Content-Length`.
    @Test(arguments: TransportUnderTest.allCases, ["GET", "HEAD"])
    func aGetOrHeadBodyNeverReachesTheServer(_ kind: TransportUnderTest, method: String) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        var request = URLRequest(url: server.url("/echo/with-body"))
        request.httpMethod = method
        request.httpBody = Data("hello".utf8)

        try await kind.with { transport in
            _ = try? await transport.send(request)
            #expect(server.requests.allSatisfy { $0.body.isEmpty && $0.header("Content-Length") == nil })
        }
    }

    // MARK: Errors

    /// An unknown host (a `.invalid` name never resolves) fails at once as `.cannotConnect`, the code URLSession's
    /// `cannotFindHost` gets, with AsyncHTTPClient's DNS error inside.
    @Test(arguments: TransportUnderTest.allCases)
    func anUnknownHostIsCannotConnect(_ kind: TransportUnderTest) async throws {
        let url = try #require(URL(string: "http://tinykit-no-such-host.invalid/x"))

        try await kind.with { transport in
            let error = try await #require(throws: HTTPTransportError.self) {
                try await transport.send(URLRequest(url: url))
            }
            #expect(error.code == .cannotConnect)
            #expect(error.request?.url == url)
            #expect(error.underlyingError != nil)
        }
    }

    /// `https` to a server that speaks plain HTTP: a failed TLS handshake, `.other` ("anything else" in the table), as
    /// URLSessionTransport's; nothing reaches the server as a request.
    @Test(arguments: TransportUnderTest.allCases)
    func aFailedTLSHandshakeIsOther(_ kind: TransportUnderTest) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let url = try #require(URL(string: "https://127.0.0.1:\(server.port)/echo"))

        try await kind.with { transport in
            let error = try await #require(throws: HTTPTransportError.self) {
                try await transport.send(URLRequest(url: url))
            }
            #expect(error.code == .other)
            #expect(error.response == nil)
        }
        #expect(server.requests.isEmpty)
    }

    /// Cancelled while the server thinks (after the request went out, before the head): `.cancelled`, no response,
    /// and the connection is closed, as with URLSession.
    @Test func cancellingWhileWaitingForTheHeadFailsAsCancelledAndCloses() async throws {
        let server = try RawSocketServer.start([.pause(20)])  // reads the request, then says nothing
        defer { server.stop() }

        try await withClient { client in
            let transport = AsyncHTTPClientTransport(client: client)
            let task = Task { try await transport.send(URLRequest(url: server.url("/thinking"))) }
            #expect(await server.waitForRequests())
            task.cancel()

            let error = try await #require(throws: HTTPTransportError.self) { try await task.value }
            #expect(error.code == .cancelled)
            #expect(error.response == nil)
            #expect(await server.waitForClosedByClient())
        }
    }

    // MARK: State after a failure, shutdown

    /// A body failed for its idle timeout or its size leaves nothing behind on the client: the next requests to the
    /// same server get their own answers.
    @Test func requestsAfterAnIdleBodyAndATooLargeBodyGetTheirOwnAnswers() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /stalls", response: TestResponse.text(200, "yyyy").trickled(byteInterval: 10))
        await server.route("GET /big", response: .text(200, String(repeating: "z", count: 5_000)))

        try await withClient { client in
            let transport = AsyncHTTPClientTransport(client: client, maximumResponseBodySize: 1_000)
            var stalls = URLRequest(url: server.url("/stalls"))
            stalls.timeoutInterval = 1
            let idle = try await #require(throws: HTTPTransportError.self) { try await transport.send(stalls) }
            #expect(idle.code == .timedOut)
            let big = try await #require(throws: HTTPTransportError.self) {
                try await transport.send(URLRequest(url: server.url("/big")))
            }
            #expect(big.message?.contains("maximumResponseBodySize") == true)

            for index in 0..<3 {
                let (body, response) = try await transport.send(URLRequest(url: server.url("/echo/\(index)")))
                #expect(response.statusCode == 200)
                #expect(try JSONDecoder().decode(RecordedRequest.self, from: body).path == "/echo/\(index)")
            }
        }
    }

    /// A client shut down under a request (the caller's, not the transport's: it never shuts one down) fails the
    /// request in flight as cancelled, the head kept when it had come, as URLSession's `invalidateAndCancel()` does; a
    /// later request fails as `.other` with AsyncHTTPClient's `alreadyShutdown`, nothing sent.
    @Test func aClientShutDownUnderItsTransportFailsItsRequests() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .tinyKit)
        let transport = AsyncHTTPClientTransport(client: client)
        let waiting = Task { try await transport.send(URLRequest(url: server.url("/slow?seconds=20"))) }
        let reading = Task { try await transport.send(URLRequest(url: server.url("/trickle?bytes=400&interval=0.05"))) }
        #expect(await server.waitForRequests(count: 2).count == 2)
        try await Task.sleep(for: .milliseconds(300))  // for the trickle's head; either way the request is cancelled
        try await client.shutdown()

        let beforeHead = try await #require(throws: HTTPTransportError.self) { try await waiting.value }
        #expect(beforeHead.code == .cancelled && beforeHead.response == nil)
        let inBody = try await #require(throws: HTTPTransportError.self) { try await reading.value }
        #expect(inBody.code == .cancelled)
        let later = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(url: server.url("/echo/later")))
        }
        #expect(later.code == .other)
        #expect((later.underlyingError as? HTTPClientError) == .alreadyShutdown)
        #expect(server.requests.count == 2)
    }
}

private func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
}

/// CRC-32 (IEEE), bit by bit.
private func crc32(_ data: Data) -> UInt32 {
    var crc: UInt32 = 0xffff_ffff
    for byte in data {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
    }
    return ~crc
}
