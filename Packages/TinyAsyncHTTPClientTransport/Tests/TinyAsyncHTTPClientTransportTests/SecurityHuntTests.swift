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
    /// origin takes it along: `execute` drops only the names `HTTPRedaction.redirect(from:to:drops:)` knows
    /// (Sources/TinyAsyncHTTPClientTransport/AsyncHTTPClientTransport.swift:171-174, HTTPRedaction.swift:54-61), and
    /// the middleware set the header before the transport followed the redirect (HTTPMiddleware+Authorization.swift:
    /// 56-58). A hostile or compromised API server gets the token sent to a host of its choosing.
    @Test func theAuthorizationMiddlewaresCustomHeaderFollowsARedirectToAnotherOrigin() async throws {
        let (api, attacker) = (try await TestServer.start(), try await TestServer.start())
        defer {
            api.stop()
            attacker.stop()
        }
        await attacker.route("GET /*") { _ in .json(200, "{}") }
        await api.route("GET /me", response: .redirect(to: attacker.url("/stolen").absoluteString))
        let transport = AsyncHTTPClientTransport.shared
            .with(.authorization(FixedToken(token: "s3cr3t-token"), header: "Private-Token"))

        _ = try await bounded(seconds: 30) { try await transport.send(URLRequest(url: api.url("/me"))) }

        #expect(api.requests.first?.header("Private-Token") == "s3cr3t-token")
        let landed = try #require(attacker.requests.first)
        #expect(landed.header("Private-Token") == nil)
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
