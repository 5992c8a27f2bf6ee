import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyStatefulEndpoint

/// `FileResponseStore` on its own: what it writes, what it refuses to write, and what it reads back.
@Suite(.timeLimit(.minutes(1))) struct FileResponseStoreTests {
    let directory = RevalidationTests.directory()
    let url = URL(string: "https://example.com/text") ?? URL(fileURLWithPath: "/")

    func request(_ method: String = "GET", headers: [String: String] = [:]) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// Saves `text` with `headers` as the answer to `request`, then reads back what is kept for it.
    func saveAndRestore(
        _ text: String, headers: [String: String] = [:], for request: URLRequest, in store: FileResponseStore
    ) async throws -> String? {
        try await saveAndRestoreWritten(text, headers: headers, for: request, in: store).restored
    }

    /// ``saveAndRestore(_:headers:for:in:)``, and whether the save left a file (a restore can remove it).
    func saveAndRestoreWritten(
        _ text: String, headers: [String: String] = [:], for request: URLRequest, in store: FileResponseStore
    ) async throws -> (written: Bool, restored: String?) {
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: headers))
        await store.save(Data(text.utf8), response, for: request)
        let file = try #require(store.location(of: request)).file
        let written = FileManager.default.fileExists(atPath: file.path)
        return (written, await store.restore(for: request) { body, _ in String(decoding: body, as: UTF8.self) })
    }

    /// Nor is the answer before it kept: it is no longer the last one seen (it was, until the hunt of 2026-11-26).
    @Test func noStoreIsNeverWritten() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        #expect(try await saveAndRestore("v1", for: request(), in: store) == "v1")
        #expect(
            try await saveAndRestore("v2", headers: ["Cache-Control": "No-Store"], for: request(), in: store) == nil)
    }

    /// `no-store` is a directive of `Cache-Control`, read whole, as freshness reads them: another directive that only
    /// holds the text (an extension such as `x-no-store-hint`) is no reason to keep nothing (it was, matched as text).
    @Test func aDirectiveThatOnlyHoldsNoStoreIsWritten() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let hinted = ["Cache-Control": "max-age=60, x-no-store-hint"]
        #expect(try await saveAndRestore("v1", headers: hinted, for: request(), in: store) == "v1")
        let listed = ["Cache-Control": "max-age=60 ,  NO-STORE"]
        #expect(try await saveAndRestore("v2", headers: listed, for: request(), in: store) == nil)
    }

    /// An API key in a header (`X-API-Key`, any case) was no credential: its answer was written to disk. Nor was an
    /// API's own token header (GitLab's `Private-Token`, Artifactory's `X-JFrog-Art-Api`), which the redirect rule
    /// already read as one.
    @Test(
        arguments: ["Authorization", "Cookie", "X-API-Key", "x-auth-token", "Private-Token", "X-JFrog-Art-Api"],
        [false, true])
    func aRequestWithCredentialsIsWrittenOnlyWhenAllowed(header: String, allowed: Bool) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, storesCredentialedRequests: allowed)
        let (written, restored) = try await saveAndRestoreWritten("v1", for: request(headers: [header: "s"]), in: store)
        #expect(written == allowed)  // not written, not only not read
        #expect(restored == (allowed ? "v1" : nil))
    }

    /// Bodies, and whether they hold a secret field. (Bytes, not `Data`: LeakSanitizer cannot follow the storage of a
    /// static `Data` of more than 14 bytes, and reports it leaked.)
    static let bodies: [(bytes: [UInt8], padding: Int, secret: Bool)] = [
        (Array(#"{"username":"ada","password":"s3cr3t"}"#.utf8), 0, true),
        (Array(#"{"user":{"name":"ada","newPassword":"s3cr3t"}}"#.utf8), 0, true),
        (Array(#"[{"refreshToken":"r"}]"#.utf8), 0, true),
        (Array("grant_type=client_credentials&client_secret=s".utf8), 0, true),
        (Array("user%5Bpassword%5D=s3cr3t&user%5Bname%5D=ada".utf8), 0, true),
        (Array("user[password]=s".utf8), 0, true), (Array("a+token=t".utf8), 0, true),
        ([0xFF, 0xFE, 0x00] + Array("&password=s3cr3t".utf8), 0, true), (Array("%zz=1&password=s".utf8), 0, true),
        (Array(#"{"query":"swift","page":2,"note":"password"}"#.utf8), 0, false),
        (Array("q=swift&page=2".utf8), 0, false),
        ([0xFF, 0xFE, 0x00, 0x3D], 0, false),
        // 64 KiB is read, one byte more is not.
        (Array("password=s&pad=".utf8), 64 * 1024 - 15, true), (Array("password=s&pad=".utf8), 64 * 1024 - 14, false),
    ]

    /// A sign-in `POST`s its credentials in the body, and the answer holds the session's token: it was written to disk
    /// (keyed by the body's hash, which a short password can be found from). A body field named as a secret query
    /// parameter (`password`, `client_secret`, `refreshToken`, at any depth of a JSON body, or a form's field, nested
    /// too) makes the request credentialed; a search's body does not, nor a body that is neither JSON nor a form with
    /// such a field, nor one over 64 KiB.
    @Test(arguments: bodies)
    func aBodyWithASecretFieldIsACredential(bytes: [UInt8], padding: Int, secret: Bool) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var post = request("POST")
        post.httpBody = Data(bytes + [UInt8](repeating: 0x20, count: padding))
        let file = try #require(FileResponseStore(directory: directory).location(of: post)).file
        for allowed in [false, true] {
            let store = FileResponseStore(directory: directory, storesCredentialedRequests: allowed)
            let (written, restored) = try await saveAndRestoreWritten("token", for: post, in: store)
            #expect(written == !secret || allowed)  // not written, not only not read
            #expect(restored == (secret && !allowed ? nil : "token"))
        }
        // A file kept for it (by a store that keeps credentialed requests, or before the rule read bodies) is removed
        // by a store that does not keep them: when it saves an answer it does not write, and unread when it restores.
        let (keeping, plain) = (
            FileResponseStore(directory: directory, storesCredentialedRequests: true),
            FileResponseStore(directory: directory)
        )
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: [:]))
        await plain.save(Data("token".utf8), response, for: post)
        #expect(FileManager.default.fileExists(atPath: file.path) == !secret)
        await keeping.save(Data("token".utf8), response, for: post)
        let restored = await plain.restore(for: post) { body, _ in body }
        #expect((restored == nil) == secret)
        #expect(FileManager.default.fileExists(atPath: file.path) == !secret)
    }

    /// A session cookie stays off the disk: the response is kept without its `Set-Cookie`.
    @Test func setCookieIsNotWritten() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let headers = ["Set-Cookie": "session=s3cret", "ETag": #""v1""#]
        #expect(try await saveAndRestore("v1", headers: headers, for: request(), in: store) == "v1")
        let file = try String(contentsOf: try #require(store.location(of: request())).file, encoding: .utf8)
        #expect(!file.contains("s3cret") && file.contains("v1"), "\(file)")
        let kept = await store.restore(for: request()) { _, response in response.allHeaderFields.count }
        #expect(kept == 1)  // the ETag
    }

    /// A token a response hands out in a header (`X-Auth-Token`, as OpenStack Swift's `GET /auth/v1.0` does) stays
    /// off the disk, as `Set-Cookie` does: the response is kept without the fields `HTTPRedaction.default` hides.
    @Test(arguments: ["X-Auth-Token", "Authorization", "X-Amz-Security-Token"])
    func aTokenInAResponseHeaderIsNotWritten(header: String) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let headers = [header: "tok3n-s3cret", "ETag": #""v1""#]
        #expect(try await saveAndRestore("v1", headers: headers, for: request(), in: store) == "v1")
        let file = try String(contentsOf: try #require(store.location(of: request())).file, encoding: .utf8)
        #expect(!file.contains("tok3n-s3cret") && file.contains("v1"), "\(file)")
        let kept = await store.restore(for: request()) { _, response in response.value(forHTTPHeaderField: "ETag") }
        #expect(kept == #""v1""#)
    }

    @Test func theMethodIsPartOfTheKey() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        #expect(try await saveAndRestore("got", for: request("GET"), in: store) == "got")
        #expect(try await saveAndRestore("posted", for: request("POST"), in: store) == "posted")
        #expect(await store.restore(for: request("GET")) { body, _ in String(decoding: body, as: UTF8.self) } == "got")
    }

    /// An answer in French is not restored for a request in English (nor JSON for XML): a server that negotiates
    /// need not say `Vary`, and `EndpointRegistry` keys by these headers too.
    @Test(arguments: ["Accept", "Accept-Language"])
    func theNegotiatedHeadersArePartOfTheKey(header: String) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        #expect(try await saveAndRestore("fr", for: request(headers: [header: "fr"]), in: store) == "fr")
        #expect(try await saveAndRestore("en", for: request(headers: [header: "en"]), in: store) == "en")
        let restored = await store.restore(for: request(headers: [header: "fr"])) { body, _ in body }
        #expect(restored.map { String(decoding: $0, as: UTF8.self) } == "fr")
        #expect(await store.restore(for: request()) { body, _ in body } == nil)
    }

    /// An answer that varies with the negotiated headers is kept per value (they are part of the key); one that
    /// varies with another request header is not kept, nor the answer before it (no longer the last one seen).
    @Test func aResponseVaryingOnlyWithKeyedHeadersIsKept() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let french = request(headers: ["Accept-Language": "fr"])
        let vary = ["Vary": "Accept-Encoding, Accept-Language, accept"]
        #expect(try await saveAndRestore("bonjour", headers: vary, for: french, in: store) == "bonjour")
        #expect(
            try await saveAndRestore("v2", headers: ["Vary": "Accept-Language, User-Agent"], for: french, in: store)
                == nil)
    }

    /// Each negotiated value is its own part of the key: an `Accept` value that reads like `Accept-Language: fr`
    /// does not share the file of `Accept` and `Accept-Language: fr` apart.
    @Test func twoRequestsWithDifferentNegotiatedHeadersHaveDifferentKeys() throws {
        let store = FileResponseStore(directory: directory)
        let together = try #require(
            store.location(of: request(headers: ["Accept": "application/json Accept-Language: fr"])))
        let apart = try #require(
            store.location(of: request(headers: ["Accept": "application/json", "Accept-Language": "fr"])))
        #expect(together.key != apart.key)
        #expect(together.file != apart.file)
    }

    @Test func aFileWrittenForAnotherRequestIsIgnoredAndLogged() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = Locked([String]())
        let store = FileResponseStore(directory: directory) { message in log.withLock { $0.append(message) } }
        let file = try #require(store.location(of: request())).file
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(#"{"key":"GET https://example.com/other","status":200,"headers":{},"body":""}"#.utf8).write(to: file)

        #expect(await store.restore(for: request()) { body, _ in body } == nil)
        #expect(log.withLock { $0 }.count == 1)
        #expect(log.withLock { $0 }.first?.contains("ignored the stored response \(file.path)") == true)
    }
}
