import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyKitTestServer

@testable import TinyAsyncHTTPClientTransport

/// The review of the sixth session's fixes, on both transports: they agree.
@Suite(.timeLimit(.minutes(1))) struct SixthSessionReviewTests {
    /// A credential provider that always gives the same token.
    private struct FixedToken: CredentialProvider {
        var token: String
        func credential() async throws -> String? { token }
        func refreshCredential(rejected: String?) async throws -> String { token }
    }

    /// Known issue on both transports: the redirect rule reads a credential from a header's name only, so the
    /// authorization middleware's header named otherwise (Artifactory's `X-JFrog-Art-Api`) goes to another origin
    /// (the transports cannot learn the middleware's header without a new declaration; see the authorization
    /// middleware's `header` parameter). Headers whose names hold none of its words go along alike.
    @Test(arguments: [false, true])
    func theAuthorizationMiddlewaresHeaderOfAnotherNameFollowsARedirectToAnotherOrigin(ahc: Bool) async throws {
        let (api, attacker) = (try await TestServer.start(), try await TestServer.start())
        defer {
            api.stop()
            attacker.stop()
        }
        await attacker.route("GET /*") { _ in .json(200, "{}") }
        await api.route("GET /me", response: .redirect(to: attacker.url("/stolen").absoluteString))
        let transport = (ahc ? AsyncHTTPClientTransport.shared : URLSessionTransport.shared as any HTTPTransport)
            .with(.authorization(FixedToken(token: "s3cr3t-token"), header: "X-JFrog-Art-Api"))
        var request = URLRequest(url: api.url("/me"))
        for name in ["Accept-Language", "X-Request-Id", "If-None-Match", "Private-Token"] {
            request.setValue("v", forHTTPHeaderField: name)
        }

        _ = try await bounded(seconds: 30) { [request] in try await transport.send(request) }

        #expect(api.requests.first?.header("X-JFrog-Art-Api") == "s3cr3t-token")
        let landed = try #require(attacker.requests.first)
        for name in ["Accept-Language", "X-Request-Id", "If-None-Match"] { #expect(landed.header(name) == "v") }
        #expect(landed.header("Private-Token") == nil)
        withKnownIssue("a credential header named otherwise than the rule reads goes to another origin") {
            #expect(landed.header("X-JFrog-Art-Api") == nil)
        }
    }

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
