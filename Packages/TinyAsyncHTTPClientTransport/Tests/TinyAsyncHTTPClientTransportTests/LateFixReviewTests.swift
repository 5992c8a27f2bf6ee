import AsyncHTTPClient
import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyKitTestServer

@testable import TinyAsyncHTTPClientTransport

/// Review of the late AsyncHTTPClient fixes (bcc5e54): each test failed before its fix.
@Suite(.timeLimit(.minutes(1))) struct LateFixReviewTests {
    /// AsyncHTTPClientTransport refused a `GET` with a body as `.invalidRequest`, "as URLSession does" (README), but
    /// URLSessionTransport failed it with URLError -1103 (`dataLengthExceedsMaximum`), mapped to `.other`: the two
    /// transports behind one `HTTPTransport` seam gave one request two codes, so `catch … where error.code ==
    /// .invalidRequest` worked on one only. `URLRequest.validate()` now refuses it for both, as `.invalidRequest`.
    @Test func aGetWithABodyFailsWithTheSameCodeOnBothTransports() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        var request = URLRequest(url: server.url("/echo/with-body"))
        request.httpMethod = "GET"
        request.httpBody = Data("hello".utf8)

        var codes: [TransportUnderTest: HTTPTransportError.Code] = [:]
        for kind in TransportUnderTest.allCases {
            try await kind.with { transport in
                let error = await #expect(throws: HTTPTransportError.self) { try await transport.send(request) }
                codes[kind] = error?.code
            }
        }
        #expect(codes[.asyncHTTPClient] == .invalidRequest)
        #expect(codes[.urlSession] == codes[.asyncHTTPClient], "codes: \(codes)")
    }
}
