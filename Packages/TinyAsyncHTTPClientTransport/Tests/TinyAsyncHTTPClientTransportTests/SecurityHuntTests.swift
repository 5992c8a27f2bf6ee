import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyKitTestServer

@testable import TinyAsyncHTTPClientTransport

/// The security hunt, on AsyncHTTPClientTransport: what a hostile server or redirect target can get out of it, and
/// what it lets a server do to the client.
@Suite(.timeLimit(.minutes(1))) struct SecurityHuntTests {
    /// A credential provider that always gives the same token.
    private struct FixedToken: CredentialProvider {
        var token: String
        func credential() async throws -> String? { token }
        func refreshCredential(rejected: String?) async throws -> String { token }
    }

    /// `.authorization(_:header:)` is told which header holds the credential, yet the transport's redirect to another
    /// origin took it along: `execute` drops only the names `HTTPRedaction.redirect(from:to:drops:)` knows, and the
    /// middleware set the header before the transport followed the redirect. A hostile or compromised API server got
    /// the token sent to a host of its choosing. The rule now reads a credential from the name (`Private-Token`), on
    /// both transports alike, and everyday headers go along.
    ///
    /// Known issue on both (the review of the sixth session): a header named otherwise (Honeycomb's
    /// `X-Honeycomb-Team`; `X-Credential` until the rule read `credential`, Artifactory's `X-JFrog-Art-Api` until it
    /// read a final `-api`) still goes to the other origin; the transports cannot learn the middleware's header without
    /// a new declaration (see the authorization middleware's `header` parameter).
    @Test(arguments: [false, true], ["Private-Token", "X-JFrog-Art-Api", "X-Credential", "X-Honeycomb-Team"])
    func theAuthorizationMiddlewaresCustomHeaderOnARedirectToAnotherOrigin(ahc: Bool, header: String) async throws {
        let (api, attacker) = (try await TestServer.start(), try await TestServer.start())
        defer {
            api.stop()
            attacker.stop()
        }
        await attacker.route("GET /*") { _ in .json(200, "{}") }
        await api.route("GET /me", response: .redirect(to: attacker.url("/stolen").absoluteString))
        let transport = (ahc ? AsyncHTTPClientTransport.shared : URLSessionTransport.shared as any HTTPTransport)
            .with(.authorization(FixedToken(token: "s3cr3t-token"), header: header))
        var request = URLRequest(url: api.url("/me"))
        let everyday = ["Accept-Language", "X-Request-Id", "If-None-Match"]
        for name in everyday + (header == "Private-Token" ? [] : ["Private-Token"]) {
            request.setValue("v", forHTTPHeaderField: name)
        }

        _ = try await bounded(seconds: 30) { [request] in try await transport.send(request) }

        #expect(api.requests.first?.header(header) == "s3cr3t-token")
        let landed = try #require(attacker.requests.first)
        for name in everyday { #expect(landed.header(name) == "v") }
        #expect(landed.header("Private-Token") == nil)
        withKnownIssue("a credential header named otherwise than the rule reads goes to another origin") {
            #expect(landed.header(header) == nil)
        } when: {
            header == "X-Honeycomb-Team"
        }
    }

    /// A response head that never ends (one field line after another, fast): libcurl gives up after 300 KB of
    /// response headers (URLError -1, "Too large response headers"), and so should a transport that promises "a
    /// larger one fails … instead of exhausting memory" for bodies. The request must fail, not keep reading a head
    /// until its 60 s deadline.
    @Test func anEndlessResponseHeadFails() async throws {
        let line = "X-Filler: " + String(repeating: "a", count: 1_000) + "\r\n"
        let server = try RawSocketServer.start([
            .send(Data("HTTP/1.1 200 OK\r\n".utf8)),
            .repeat(Data(String(repeating: line, count: 16).utf8), interval: 0.01),
        ])
        defer { server.stop() }

        let outcome: (any Error)?
        do {
            _ = try await bounded(seconds: 20) {
                try await AsyncHTTPClientTransport.shared.send(URLRequest(url: server.url()))
            }
            outcome = nil
        } catch {
            outcome = error
        }

        #expect(outcome is HTTPTransportError, "\(String(describing: outcome))")
    }

    /// `maximumResponseBodySize` holds whatever middleware is stacked on the transport: a body over it fails with the
    /// transport's error, and is not retried.
    @Test func aBodyOverTheLimitFailsThroughTheAuthorizationAndRetryMiddleware() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /big", response: .text(200, String(repeating: "x", count: 4_000)))
        let transport = AsyncHTTPClientTransport(maximumResponseBodySize: 1_000)
            .with(.retry(), .authorization(FixedToken(token: "t")))

        let error = await #expect(throws: HTTPTransportError.self) {
            try await bounded(seconds: 30) { try await transport.send(URLRequest(url: server.url("/big"))) }
        }

        #expect(error?.message?.contains("maximumResponseBodySize") == true)
    }
}
