import Foundation
import Testing

@_spi(TinyKit) @testable import TinyHTTPTransport

/// `URLRequest.validate()` and the refusals it promises before anything is sent.
@Suite(.timeLimit(.minutes(1))) struct URLRequestValidationTests {
    /// A `GET` with an `httpBodyStream` passed `validate()` (only `httpBody` bytes were checked), so the mocks took
    /// it while URLSessionTransport failed it as `.other` with URLError -1103 ("resource exceeds maximum size"), an
    /// empty stream too, and AsyncHTTPClientTransport as `.invalidRequest`: one request, three answers.
    @Test(arguments: ["hello", ""])
    func aGetWithABodyStreamIsRefusedAsInvalid(body: String) throws {
        for method in [nil, "GET"] {
            var request = URLRequest(url: try #require(URL(string: "https://api.example.com/todos")))
            request.httpMethod = method
            request.httpBodyStream = InputStream(data: Data(body.utf8))
            let error = #expect(throws: HTTPTransportError.self) { try request.validate() }
            #expect(error?.code == .invalidRequest)
            #expect(error?.message == "a GET request cannot have a body")
        }
    }

    /// Other methods keep their body stream, and a `GET` without a body passes.
    @Test func aBodyStreamOfAnotherMethodAndAnEmptyGetPass() throws {
        var post = URLRequest(method: .post, url: try #require(URL(string: "https://api.example.com/todos")))
        post.httpBodyStream = InputStream(data: Data("hello".utf8))
        try post.validate()
        var get = URLRequest(url: try #require(URL(string: "https://api.example.com/todos")))
        get.httpBody = Data()
        try get.validate()
    }

    #if canImport(Glibc)
        /// The live transport refuses it the same way, before anything reaches the server.
        @Test func urlSessionTransportRefusesAGetWithABodyStreamUnsent() async throws {
            let server = try ScriptedHTTPServer(reply: ScriptedHTTPServer.response(200, body: "ok"))
            var request = URLRequest(url: try server.url("/stream"))
            request.timeoutInterval = 10
            request.httpBodyStream = InputStream(data: Data("hello".utf8))
            let error = await #expect(throws: HTTPTransportError.self) {
                try await URLSessionTransport().send(request)
            }
            #expect(error?.code == .invalidRequest)
            #expect(server.heads.isEmpty)
        }
    #endif
}
