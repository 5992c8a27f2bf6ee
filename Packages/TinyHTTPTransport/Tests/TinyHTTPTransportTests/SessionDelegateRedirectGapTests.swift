import Foundation
import Testing

@_spi(TinyKit) @testable import TinyHTTPTransport

#if canImport(Glibc) && canImport(FoundationNetworking)
    import FoundationNetworking

    /// A session delegate of the user's own: it implements no method.
    private final class UsersDelegate: NSObject, URLSessionDataDelegate, Sendable {}

    /// What the redirect handler and the `httpAdditionalHeaders` check of SessionDelegate.swift leave out on Linux.
    @Suite(.timeLimit(.minutes(1))) struct SessionDelegateRedirectGapTests {
        /// SessionDelegate.swift `willPerformHTTPRedirection` removes `Authorization` (and the other credentials) from
        /// the redirected `URLRequest`, but FoundationNetworking adds the configuration's `httpAdditionalHeaders` to
        /// every transfer when it sets up libcurl (`configureEasyHandle`), after the delegate: a token set on the
        /// session's configuration (`httpAdditionalHeaders = ["Authorization": …]`, a common way to authorize every
        /// request) went to whatever origin the `Location` named. Such a redirect is not followed now.
        @Test func aConfigurationsAuthorizationIsNotSentToAnotherOrigin() async throws {
            let target = try ScriptedHTTPServer { _ in ScriptedHTTPServer.response(200, body: "landed") }
            let elsewhere = try target.url("/landing").absoluteString
            let origin = try ScriptedHTTPServer { _ in
                ScriptedHTTPServer.response(302, headers: ["Location: \(elsewhere)"])
            }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["Authorization": "Bearer c0nfigS3cret"]

            let (_, response) = try await URLSessionTransport(configuration: configuration).send(
                URLRequest(url: try origin.url("/start")))

            // Not followed: the redirect comes back as the response, and the other origin hears nothing.
            #expect(response.statusCode == 302)
            #expect(target.heads.isEmpty, "\(target.heads)")
        }

        /// A login answered `302` with `Set-Cookie` and `Location: /home`: the cookie is stored, and a session
        /// without a delegate (`URLSession(configuration:)`, used directly) sends it with the redirected request, as
        /// Apple platforms do. FoundationNetworking adds the stored cookies to a redirected request only when the
        /// session has no delegate; with one it sends the delegate's request as it is. Every TinyKit session has
        /// one (`URLSessionTransport`'s, the twin of `URLSession.shared`), and the redirect handler, which now
        /// builds every redirected request, adds no cookies: `GET /home` goes without the session it just got. (The
        /// same handler drops the `Cookie` header on a change of origin, so the new origin's own cookies are never
        /// sent either.)
        @Test func aCookieSetByARedirectIsSentWithTheRedirectedRequest() async throws {
            let server = try ScriptedHTTPServer { head in
                ScriptedHTTPServer.path(of: head) == "/login"
                    ? ScriptedHTTPServer.response(
                        302, headers: ["Set-Cookie: session=abc; Path=/", "Location: /home"])
                    : ScriptedHTTPServer.response(200, body: "home")
            }
            let plain = URLSession(configuration: .ephemeral)
            defer { plain.finishTasksAndInvalidate() }
            _ = try await plain.data(for: URLRequest(url: try server.url("/login")))
            let transport = URLSessionTransport(configuration: .ephemeral)

            let (_, response) = try await transport.send(URLRequest(url: try server.url("/login")))

            #expect(response.statusCode == 200)
            let homes = server.heads.filter { ScriptedHTTPServer.path(of: $0) == "/home" }
            try #require(homes.count == 2)
            #expect(homes[0].contains("Cookie: session=abc"), "FoundationNetworking without a delegate: \(homes[0])")
            #expect(homes[1].contains("Cookie: session=abc"), "\(homes[1])")
        }

        /// SessionDelegate.swift `init(_:)` checks `httpAdditionalHeaders` for the sessions TinyKit makes (and the twins
        /// of sessions without a delegate), and `makeDataTask` refuses through `delegate?.refusal`: a session with its
        /// own delegate (`URLSession(configuration:delegate:delegateQueue:)`, then `send`, `load`, `dataTask(endpoint:)`)
        /// was never checked, and its CRLF header value went on the wire as a header line of its own. `makeDataTask`
        /// checks such a session's configuration itself now.
        @Test func aConfigurationHeaderWithALineBreakIsRefusedOnASessionWithItsOwnDelegate() async throws {
            let server = try ScriptedHTTPServer { _ in ScriptedHTTPServer.response(200, body: "ok") }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["X-Token": "abc\r\nX-Injected: yes"]
            let session = URLSession(configuration: configuration, delegate: UsersDelegate(), delegateQueue: nil)
            defer { session.finishTasksAndInvalidate() }

            let result = await Result { try await session.send(URLRequest(url: try server.url("/items"))) }

            let refused = (try? result.get()) == nil
            let head = server.heads.first ?? ""
            #expect(refused)
            #expect(!head.contains("\r\nX-Injected: yes\r\n"), "\(head)")
        }
    }
#endif
