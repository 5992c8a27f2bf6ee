import Foundation
import Testing
import TinyKit
import TinyKitTestServer

/// The security hunt: what an attacker (a hostile server, a hostile redirect target, a hostile value passed through)
/// can get out of TinyKit, and what TinyKit leaks to an auditor's eye (dumps, files, other origins).
@Suite(.timeLimit(.minutes(1))) struct SecurityHuntTests {
    /// A credential provider that always gives the same token.
    private struct FixedToken: CredentialProvider {
        var token: String
        func credential() async throws -> String? { token }
        func refreshCredential(rejected: String?) async throws -> String { token }
    }

    // MARK: - Secrets in dumps

    /// `Endpoint.description` promises "Never the body itself nor a header: a login endpoint's password stays out of
    /// logs" (Packages/TinyEndpoint/Sources/TinyEndpoint/Endpoint.swift:75-83), and `HTTPTransportError.description`
    /// that "header values are never printed". Without a `customMirror` of their own, `dump(_:)` (and every tool
    /// built on `Mirror`: debuggers, crash reporters, Swift Testing's expanded values) printed the stored `URLRequest`
    /// whole: the `Authorization` header in clear and the password body byte by byte. A `dump(error)` in a `catch` is
    /// the first thing developers write while debugging. Their mirrors show their descriptions instead.
    @Test func dumpingAnEndpointOrItsFailureShowsNoCredentials() throws {
        let url = try #require(URL(string: "https://api.example.com/login"))
        let endpoint = Endpoint<EmptyResponse>(
            json: .post, url: url, body: ["password": "hunter2"], headers: ["Authorization": "Bearer s3cr3t-bearer"])
        let error = HTTPTransportError(.unacceptableStatus(500), request: endpoint.request)
        #expect(!endpoint.description.contains("s3cr3t-bearer"))  // what is promised holds
        #expect(!error.description.contains("s3cr3t-bearer"))

        var dumpedEndpoint = ""
        dump(endpoint, to: &dumpedEndpoint)
        var dumpedError = ""
        dump(error, to: &dumpedError)

        #expect(!dumpedEndpoint.contains("s3cr3t-bearer"), "\(dumpedEndpoint)")
        #expect(!dumpedEndpoint.contains("hunter2"), "\(dumpedEndpoint)")
        #expect(!dumpedError.contains("s3cr3t-bearer"), "\(dumpedError)")
        // What they show instead: the method, the redacted URL, the body's size, the failure.
        #expect(dumpedEndpoint.contains("POST https://api.example.com/login (22 bytes)"), "\(dumpedEndpoint)")
        #expect(dumpedError.contains("unacceptable status 500"), "\(dumpedError)")
    }

    // MARK: - FileResponseStore's files

    /// `FileResponseStore(storesCredentialedRequests: true)` keeps the answer to a request with `Authorization` (a
    /// user's private data: "private data stays off the disk unless you say otherwise",
    /// Packages/TinyStatefulEndpoint/Sources/TinyStatefulEndpoint/ResponseStore.swift:37) with
    /// `Data.write(to:options: .atomic)` and `createDirectory` (ResponseStore.swift:116-120), which take the process's
    /// umask: here (umask 022) the file is `0644` and its directory `0755`, readable by every other user of the machine
    /// (a server's or a shared Linux box's). `URLCache`, keychains and ssh keep such files `0600`/`0700`; so should a
    /// store whose only job is to keep responses, at least the credentialed ones (`.completeFileProtection` and
    /// `posixPermissions: 0o600`).
    @Test func aStoredCredentialedResponseIsReadableByEveryUser() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sec-hunt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, storesCredentialedRequests: true, log: { _ in })
        let url = try #require(URL(string: "https://api.example.com/me"))
        var request = URLRequest(url: url)
        request.setValue("Bearer s3cr3t", forHTTPHeaderField: "Authorization")
        let response = try #require(
            HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:]))

        await store.save(Data(#"{"email":"ada@example.com","iban":"DE00"}"#.utf8), response, for: request)

        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let file = try #require(files.first)
        func permissions(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        let filePermissions = try permissions(directory.appendingPathComponent(file).path)
        let directoryPermissions = try permissions(directory.path)
        #expect(filePermissions & 0o077 == 0, "the file is \(String(filePermissions, radix: 8))")
        #expect(directoryPermissions & 0o077 == 0, "the directory is \(String(directoryPermissions, radix: 8))")
    }

    // MARK: - Credentials sent to another origin

    /// `.authorization(_:header:)` is told which header holds the credential, yet a redirect to another origin takes
    /// it along: both transports drop only the names of `HTTPRedaction.default`
    /// (`HTTPRedaction.redirect(from:to:drops:)`, Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/
    /// HTTPRedaction.swift; the session delegate's redirect handler), and the middleware adds the header before the
    /// transport follows the redirect (HTTPMiddleware+Authorization.swift, `authorization`). An API authenticated by
    /// `Private-Token` (GitLab), `X-Access-Token` or `X-Goog-Api-Key` hands its token to whatever host a hostile or
    /// compromised server names in `Location`, the leak the transports' redirect rule exists to prevent ("no
    /// credential … to another origin", ARCHITECTURE.md). The middleware knows the name: it should not let it
    /// leave the origin (follow redirects itself, or tell the transport the name is a credential).
    @Test func theAuthorizationMiddlewaresCustomHeaderFollowsARedirectToAnotherOrigin() async throws {
        let attacker = try await TestServer.start()
        defer { attacker.stop() }
        await attacker.route("GET /*") { _ in .json(200, "{}") }
        let api = try await TestServer.start()
        defer { api.stop() }
        await api.route("GET /me", response: .redirect(to: attacker.url("/stolen").absoluteString))
        let transport = URLSessionTransport(configuration: .ephemeral)
            .with(.authorization(FixedToken(token: "s3cr3t-token"), header: "Private-Token"))

        _ = try await bounded(seconds: 30) { try await transport.send(URLRequest(url: api.url("/me"))) }

        #expect(api.requests.first?.header("Private-Token") == "s3cr3t-token")  // sent where it belongs
        let landed = try #require(attacker.requests.first)
        #expect(landed.header("Private-Token") == nil)
    }

    /// `HTTPRedaction.default` names `X-Amz-Security-Token` and Google's `key` as secrets in a query
    /// (`HTTPRedaction.init`, "the credentials of an S3 presigned URL", "`key` (Google's API keys)"), but not the
    /// very same credentials in their header form: AWS SigV4 sends the session token as the `X-Amz-Security-Token`
    /// header, Google documents `X-Goog-Api-Key` as the header form of `key`. In that form they are printed in clear by
    /// the logging middleware's trace lines and every redaction (`redacted(headers:)`), go along on a redirect to
    /// another origin (the rule follows the same list, `redirect(from:to:drops:)`), and `FileResponseStore` neither sees
    /// the request as credentialed nor keys the answer by the credential (ResponseStore.swift:146), so one key's answer
    /// is restored for another's.
    @Test func theHeaderFormsOfListedCredentialsAreNotSecret() async throws {
        let names = ["X-Amz-Security-Token", "X-Goog-Api-Key"]
        let redacted = HTTPRedaction.default.redacted(
            headers: Dictionary(uniqueKeysWithValues: names.map { ($0, "k") }))

        let attacker = try await TestServer.start()
        defer { attacker.stop() }
        await attacker.route("GET /*") { _ in .json(200, "{}") }
        let api = try await TestServer.start()
        defer { api.stop() }
        await api.route("GET /data", response: .redirect(to: attacker.url("/stolen").absoluteString))
        var request = URLRequest(url: api.url("/data"))
        for name in names { request.setValue("s3cr3t-\(name)", forHTTPHeaderField: name) }
        _ = try await bounded(seconds: 30) { [request] in
            try await URLSessionTransport(configuration: .ephemeral).send(request)
        }
        let landed = try #require(attacker.requests.first)
        // One API key's stored answer, restored for a request with another key.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sec-hunt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, log: { _ in })
        let url = try #require(URL(string: "https://maps.example.com/places"))
        var first = URLRequest(url: url)
        first.setValue("key-of-ada", forHTTPHeaderField: "X-Goog-Api-Key")
        var second = first
        second.setValue("key-of-bob", forHTTPHeaderField: "X-Goog-Api-Key")
        let response = try #require(
            HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:]))
        await store.save(Data("ada's places".utf8), response, for: first)
        let restored = await store.restore(for: second) { body, _ in String(decoding: body, as: UTF8.self) }

        #expect(restored == nil, "restored for another key: \(String(describing: restored))")
        for name in names {
            #expect(redacted[name] == "***", "\(name) printed")
            #expect(landed.header(name) == nil, "\(name) sent to another origin")
        }
    }

    // MARK: - Resource exhaustion

    /// A server that redirects forever: `AsyncHTTPClientTransport` gives up after 20 redirects
    /// (AsyncHTTPClientTransport.swift:161, "up to 20, no cycles"), curl after 30 by default and Apple's URLSession
    /// after 16. On Linux, URLSessionTransport's session delegate hands FoundationNetworking every next request
    /// (`SessionDelegate`'s redirect handler) without counting them.
    @Test func endlessRedirectsEnd() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /loop/:n") { request in
            let n = Int(request.path.split(separator: "/").last ?? "") ?? 0
            return .redirect(to: "/loop/\(n + 1)")
        }
        let transport = URLSessionTransport(configuration: .ephemeral)

        var failure: (any Error)?
        do {
            _ = try await bounded(seconds: 20) { try await transport.send(URLRequest(url: server.url("/loop/0"))) }
        } catch {
            failure = error
        }

        let followed = server.requests.count
        #expect(followed <= 31, "\(followed) redirects followed")
        #expect(!(failure is BoundedTimeout), "\(String(describing: failure))")
    }
}
