import Foundation
import Testing

@_spi(TinyKit) @testable import TinyHTTPTransport

#if canImport(Glibc) && canImport(FoundationNetworking)
    import FoundationNetworking

    /// Mistakes found in the review of the sixth session's fixes.
    @Suite(.timeLimit(.minutes(1))) struct SixthSessionReviewTests {
        /// The error-message hunt made `description` name "the URL that answered, after a redirect" whenever the
        /// response's URL reads otherwise than the request's; but the send path itself sends an upper-case scheme as
        /// the lower-case one (`HTTP://` as `http://`), so a plain `404` of `HTTP://host/x` on `URLSessionTransport`
        /// said "answered by http://host/x", a redirect that never happened (`AsyncHTTPClientTransport`, whose
        /// response keeps the request's URL, says nothing).
        @Test func anUpperCaseSchemeIsNoRedirectInTheDescription() async throws {
            let server = try ScriptedHTTPServer { _ in ScriptedHTTPServer.response(404, body: "nf") }
            let url = try #require(URL(string: "HTTP://127.0.0.1:\(server.port)/x"))
            let request = URLRequest(url: url)

            let (body, response) = try await URLSessionTransport.shared.send(request)
            let error = HTTPTransportError(.unacceptableStatus(404), request: request, response: response, body: body)

            #expect(response.statusCode == 404)
            #expect(!error.description.contains("answered by"), "\(error.description)")
        }

        /// The control: after a real redirect the description names the URL that answered.
        @Test func aRedirectIsNamedInTheDescription() async throws {
            let server = try ScriptedHTTPServer { head in
                ScriptedHTTPServer.path(of: head) == "/old"
                    ? ScriptedHTTPServer.response(301, headers: ["Location: /new"])
                    : ScriptedHTTPServer.response(404, body: "nf")
            }
            let request = URLRequest(url: try server.url("/old"))

            let (body, response) = try await URLSessionTransport.shared.send(request)
            let error = HTTPTransportError(.unacceptableStatus(404), request: request, response: response, body: body)

            #expect(
                error.description.contains("answered by http://127.0.0.1:\(server.port)/new"), "\(error.description)")
        }
    }
#endif
