import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyKitTestServer

@testable import TinyAsyncHTTPClientTransport

/// The review of the sixth session's fixes, on both transports: they agree. (Its check of the authorization
/// middleware's header on a redirect is SecurityHuntTests'.)
@Suite(.timeLimit(.minutes(1))) struct SixthSessionReviewTests {
    /// `HTTPTransportError.description` names the URL that answered only after a redirect: an upper-case scheme,
    /// which `URLSessionTransport` sends in lower case and `AsyncHTTPClientTransport` keeps, is none on either.
    @Test(arguments: [false, true])
    func anUpperCaseSchemeIsNoRedirectInTheDescription(ahc: Bool) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /x") { _ in .json(404, "{}") }
        let transport = ahc ? AsyncHTTPClientTransport.shared : URLSessionTransport.shared as any HTTPTransport
        let url = try #require(
            URL(string: server.url("/x").absoluteString.replacingOccurrences(of: "http:", with: "HTTP:")))
        let request = URLRequest(url: url)

        let (body, response) = try await bounded(seconds: 30) { try await transport.send(request) }
        let error = HTTPTransportError(.unacceptableStatus(404), request: request, response: response, body: body)

        #expect(response.statusCode == 404)
        #expect(!error.description.contains("answered by"), "\(error.description)")
    }
}
