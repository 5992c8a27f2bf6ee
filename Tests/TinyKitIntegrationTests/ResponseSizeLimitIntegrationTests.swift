import Foundation
import Testing
import TinyKit
import TinyKitTestServer

/// `URLSessionTransport.maximumResponseBodySize` over real HTTP: the same limit, default and error as
/// `AsyncHTTPClientTransport`'s, and a body over it is refused without being held whole.
@Suite(.timeLimit(.minutes(1))) struct ResponseSizeLimitIntegrationTests {
    /// The error of a refused body, with the response it came with.
    static func refusal(
        _ transport: URLSessionTransport, _ url: URL
    ) async throws -> HTTPTransportError {
        let error = await #expect(throws: HTTPTransportError.self) {
            try await bounded(seconds: 30) { try await transport.send(URLRequest(url: url)) }
        }
        return try #require(error)
    }

    @Test func aThirtyTwoMegabyteBodyIsRefusedAtItsHead() async throws {
        // The head announces 32 MB; the body then comes at 320 KB/s, so reading it whole would take 100 s, far
        // past the 30 s bound: only a refusal at the head ends the request in time.
        let server = try RawSocketServer.start([
            .send(Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 33554432\r\n\r\n".utf8)),
            .repeat(Data(repeating: 0x61, count: 0x4000), interval: 0.05),
        ])
        defer { server.stop() }
        let transport = URLSessionTransport(configuration: .ephemeral)
        #expect(transport.maximumResponseBodySize == 10 * 1024 * 1024)

        let error = try await Self.refusal(transport, server.url("/large"))

        #expect(error.code == .other)
        #expect(error.message == "the response body is larger than maximumResponseBodySize, 10485760 bytes")
        #expect(error.response?.statusCode == 200)
        #expect(error.body == nil)
        #expect(await server.waitForClosedByClient())
    }

    @Test func anEndlessChunkedBodyIsCutOffOnceItPassesTheLimit() async throws {
        let chunk = Data("4000\r\n".utf8) + Data(repeating: 0x61, count: 0x4000) + Data("\r\n".utf8)
        let server = try RawSocketServer.start([
            .send(Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)),
            .repeat(chunk, interval: 0.001),
        ])
        defer { server.stop() }
        let transport = URLSessionTransport(configuration: .ephemeral, maximumResponseBodySize: 1 << 20)

        let error = try await Self.refusal(transport, server.url("/endless"))

        #expect(error.message == "the response body is larger than maximumResponseBodySize, 1048576 bytes")
        #expect(error.response?.statusCode == 200)
        // The body never ends: only the limit ended the request, and the client closed the connection.
        #expect(await server.waitForClosedByClient())
    }

    @Test func aBodyAtTheLimitLoadsAndOneByteMoreDoesNot() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let url = server.url("/bytes?count=1000")

        let (body, response) = try await URLSessionTransport(maximumResponseBodySize: 1000).send(URLRequest(url: url))
        #expect(response.statusCode == 200)
        #expect(body == TestServer.bytes(count: 1000))

        let error = try await Self.refusal(URLSessionTransport(maximumResponseBodySize: 999), url)
        #expect(error.message?.hasSuffix("maximumResponseBodySize, 999 bytes") == true)
        let negative = try await Self.refusal(URLSessionTransport(maximumResponseBodySize: -1), url)
        #expect(negative.message?.hasSuffix("maximumResponseBodySize, 0 bytes") == true)
    }

    /// The limit bounds the body read into memory, which URLSession decompresses: a gzip-compressed `{}` (2 bytes,
    /// 22 on the wire) loads under a limit of 10, as it does with `AsyncHTTPClientTransport`. The delegate compared
    /// the response's `Content-Length`, the compressed size, with the limit, and refused it.
    @Test func theLimitCountsTheDecompressedBodyNotTheCompressedContentLength() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /tiny", response: .gzippedJSON(200, "{}"))
        let transport = URLSessionTransport(configuration: .ephemeral, maximumResponseBodySize: 10)

        let (body, response) = try await bounded(seconds: 30) {
            try await transport.send(URLRequest(url: server.url("/tiny")))
        }
        #expect(response.value(forHTTPHeaderField: "Content-Encoding") == "gzip")
        #expect(body == Data("{}".utf8))
    }

    #if canImport(FoundationNetworking)
        /// On Linux a session without a delegate sends through its twin, whose delegate applies the limit too.
        @Test func theLimitHoldsOnASessionWithoutDelegate() async throws {
            let server = try await TestServer.start()
            defer { server.stop() }
            let session = URLSession(configuration: .ephemeral)
            defer { session.finishTasksAndInvalidate() }
            let transport = URLSessionTransport(session: session, maximumResponseBodySize: 100)

            let error = try await Self.refusal(transport, server.url("/bytes?count=101"))

            #expect(error.message?.hasSuffix("maximumResponseBodySize, 100 bytes") == true)
            // URLSession's own entries have no limit.
            let (body, _) = try await session.send(URLRequest(url: server.url("/bytes?count=101")))
            #expect(body.count == 101)
        }
    #endif
}
