import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

/// The review of the sixth session's revalidation and store fixes: which stored body a `304` hands back.
@Suite(.timeLimit(.minutes(1))) struct SixthSessionReviewTests {
    /// A `FileResponseStore` whose writes fail while `failing` is set, as a full disk's do: the file of the answer
    /// before stays (`FileResponseStore` logs the failure and keeps it).
    final class FailingWritesStore: ResponseStore {
        let file: FileResponseStore
        let failing = Locked(false)

        init(directory: URL) { file = FileResponseStore(directory: directory, log: { _ in }) }

        func restore<Value>(
            for request: URLRequest, _ decode: @Sendable (Data, HTTPURLResponse) throws -> Value
        ) async -> Value? {
            await file.restore(for: request, decode)
        }

        func save(_ body: Data, _ response: HTTPURLResponse, for request: URLRequest) async {
            if failing.withLock({ $0 }) { return }
            await file.save(body, response, for: request)
        }
    }

    /// StatefulEndpoint.swift `load()`: after a `304` the stored body goes back to the store with the confirmed
    /// response's header fields, whatever body is stored. RFC 9111 §4.3.4 updates only a stored response with the
    /// validators the `304` confirmed. When the store holds an older answer (its write of the newer one failed, or
    /// another instance wrote it), `v1`'s body was written with `v2`'s `ETag`: the next launch offers `v1`,
    /// revalidates it as `"2"`, is told it is current, and shows `v1` for good.
    @MainActor @Test func aNotModifiedDoesNotGiveAnotherStoredBodyItsValidators() async throws {
        let directory = RevalidationTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FailingWritesStore(directory: directory)
        let mock = MockTransport()
        mock.register(
            .get, "/text", .text("v1", headers: ["ETag": #""1""#]), .text("v2", headers: ["ETag": #""2""#]),
            .status(304, headers: ["ETag": #""2""#]))
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, store: store)
        endpoint.load()
        await endpoint.task?.value  // "v1" written
        store.failing.withLock { $0 = true }
        endpoint.load()
        await endpoint.task?.value  // "v2", its write failed: the file still holds "v1"
        store.failing.withLock { $0 = false }

        endpoint.load()
        await endpoint.task?.value  // 304: "v2" confirmed

        #expect(endpoint.state == .success("v2"))
        #expect(mock.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, #""1""#, #""2""#])
        let stored = await store.restore(for: textEndpoint().request) { body, response in
            (String(decoding: body, as: UTF8.self), response.value(forHTTPHeaderField: "ETag"))
        }
        #expect(stored?.0 == "v1")
        #expect(stored?.1 == #""1""#, "v1's body stored as \(stored?.1 ?? "nil")")
    }

    /// A profile as this version of the app reads it: its `plan` was a string in the version that stored it.
    struct Profile: Decodable, Sendable {
        var name: String
        var plan: Int
    }

    /// ResponseStore.swift `restore`: a stored body the endpoint no longer decodes (the app's model changed) is
    /// "ignored and its reason goes to `log`", standard error by default, as `"\(error)"`: an `EndpointError`'s
    /// `description`, with a preview of the body, here a session token. The error-message fix tells such an error by
    /// its `errorDescription` (no body) in `HTTPTransportError`; the store's log printed the body.
    @Test func aStoredBodyThatNoLongerDecodesIsNotPrintedToTheLog() async throws {
        let directory = RevalidationTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = Locked([String]())
        let store = FileResponseStore(directory: directory) { message in log.withLock { $0.append(message) } }
        let url = try #require(URL(string: "https://example.com/profile"))
        let endpoint = Endpoint<Profile>(json: .get, url: url)
        let response = try #require(
            HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: nil, headerFields: ["Content-Type": "application/json"]))
        let body = #"{"name":"Ada","plan":"pro","session_token":"s3cr3t-session"}"#
        await store.save(Data(body.utf8), response, for: endpoint.request)

        #expect(await endpoint.restore(from: store) == nil)

        let text = try #require(log.withLock { $0 }.first)
        #expect(text.contains("could not decode Profile at plan"), "\(text)")
        #expect(!text.contains("s3cr3t-session"), "\(text)")
    }

    /// StatefulEndpoint+Revalidation.swift `updated(by:)`: a `304`'s `Content-Type` replaced the one the stored body
    /// was read with. A server that labels its `304`s `text/html` (a framework's default) made the file's JSON body
    /// `text/html`: the next launch's restore refused it (`unexpectedContentType`) and offered nothing.
    @MainActor @Test func aNotModifiedsContentTypeDoesNotRelabelTheStoredBody() async throws {
        let directory = RevalidationTests.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, log: { _ in })
        let url = try #require(URL(string: "https://example.com/tags"))
        let mock = MockTransport()
        mock.register(
            .get, "/tags", .json(#"["swift"]"#, headers: ["ETag": #""1""#]),
            .status(304, headers: ["ETag": #""1""#, "Content-Type": "text/html; charset=utf-8"]))
        let endpoint = StatefulEndpoint(
            endpoint: Endpoint<[String]>(json: .get, url: url), transport: mock, store: store)
        endpoint.load()
        await endpoint.task?.value
        endpoint.load()
        await endpoint.task?.value  // 304: confirmed, and written back with its header fields
        #expect(endpoint.state == .success(["swift"]))
        #expect(mock.requests.count == 2)

        let restored = await Endpoint<[String]>(json: .get, url: url).restore(from: store)  // the next launch's
        #expect(restored?.value == ["swift"])
    }
}
