import Foundation
import Testing

@_spi(TinyKit) @testable import TinyHTTPTransport

#if canImport(Glibc) && canImport(FoundationNetworking)
    import FoundationNetworking

    /// A credential that never changes.
    private struct FixedCredential: CredentialProvider {
        let value: String
        func credential() async throws -> String? { value }
        func refreshCredential(rejected: String?) async throws -> String { value }
    }

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

        /// `HTTPRedaction.redirect(from:to:drops:)` drops a header whose name holds `auth`, `token`, `key`, `secret`,
        /// `session`, `password`, `credential` or `jwt`, or ends in `-api`, on a redirect to another origin (a
        /// documented rule: `Keyword` goes too; not `Idempotency-Key`); the everyday headers beside them still go along.
        @Test func everydayHeadersFollowARedirectToAnotherOrigin() async throws {
            let target = try ScriptedHTTPServer { _ in ScriptedHTTPServer.response(200, body: "landed") }
            let elsewhere = try target.url("/landing").absoluteString
            let origin = try ScriptedHTTPServer { _ in
                ScriptedHTTPServer.response(307, headers: ["Location: \(elsewhere)"])
            }
            let kept = ["Accept-Language", "X-Request-Id", "Cache-Control", "If-None-Match", "X-Trace"]
            var request = URLRequest(url: try origin.url("/start"))
            for name in kept + ["Private-Token", "X-Api-Key", "Origin"] {
                request.setValue("v", forHTTPHeaderField: name)
            }

            _ = try await URLSessionTransport(configuration: .ephemeral).send(request)

            let landed = try #require(target.heads.first).lowercased()
            for name in kept { #expect(landed.contains("\(name.lowercased()): v"), "\(name)") }
            for name in ["private-token", "x-api-key", "origin"] { #expect(!landed.contains("\(name):"), "\(name)") }
        }

        /// The authorization middleware knows which header holds its credential, but the transports drop a header on
        /// a redirect to another origin only by its name (`HTTPRedaction.redirect(from:to:drops:)`). `X-Credential`
        /// and `X-JWT` read as credentials (`credential`, `jwt`) and stay behind. Known issue: a credential header
        /// whose name reads as none (Honeycomb's `X-Honeycomb-Team`) is handed to whatever origin a `Location` names.
        /// The transports cannot know the middleware's header without a new way to tell them (a public or SPI
        /// declaration, or a task-local side channel, which ARCHITECTURE.md rules out): pinned.
        @Test(arguments: [("X-Credential", true), ("X-JWT", true), ("X-Honeycomb-Team", false)])
        func theAuthorizationMiddlewaresHeaderStaysBehindOnARedirectToAnotherOrigin(
            header: String, readsAsCredential: Bool
        )
            async throws
        {
            let target = try ScriptedHTTPServer { _ in ScriptedHTTPServer.response(200, body: "landed") }
            let elsewhere = try target.url("/landing").absoluteString
            let origin = try ScriptedHTTPServer { _ in
                ScriptedHTTPServer.response(302, headers: ["Location: \(elsewhere)"])
            }
            let transport = URLSessionTransport(configuration: .ephemeral)
                .with(.authorization(FixedCredential(value: "s3cr3t"), header: header))

            _ = try await transport.send(URLRequest(url: try origin.url("/start")))

            #expect(origin.heads.first?.contains("s3cr3t") == true)  // sent where it belongs
            let landed = try #require(target.heads.first)
            withKnownIssue("a credential header named otherwise than the rule reads goes to another origin") {
                #expect(!landed.contains("s3cr3t"), "\(landed)")
            } when: {
                !readsAsCredential
            }
        }
    }
#endif

/// The secret query parameters: the security hunt added the credentials of an S3 presigned URL
/// (`X-Amz-Signature`, `X-Amz-Credential`) and Google's `key` and `X-Goog-Api-Key`, but not the same credentials of
/// a Google Cloud Storage signed URL (`X-Goog-Signature`, `X-Goog-Credential`, its V4 signing is S3's): a signed
/// download URL in an error or a log line could be used by whoever reads it until it expires. (An Azure shared access
/// signature's `sig` stays the example of a name to add: `HTTPRedaction(queryParameters: ["sig"])`.)
@Suite(.timeLimit(.minutes(1))) struct SixthSessionSignedURLTests {
    @Test(arguments: [
        "https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=sa%40p.iam"
            + "&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature=5EcrE7",
        "https://storage.googleapis.com/b/o?x-goog-credential=sa%40p.iam&X-Goog-Expires=900&x-goog-signature=5EcrE7",
    ])
    func aSignedURLsSignatureIsRedacted(text: String) throws {
        let url = try #require(URL(string: text))
        let redacted = HTTPRedaction.default.redacted(url: url)
        #expect(!redacted.contains("5EcrE7"), "\(redacted)")
        #expect(!redacted.contains("sa%40p"), "\(redacted)")
        #expect(redacted.contains("X-Goog-Expires=900"))  // the rest stays
    }
}
