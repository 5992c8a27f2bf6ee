import Foundation
import TinyEndpoint
import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport answering every request with a closure, recording what it was sent: one per test.
final class StubTransport: HTTPTransport {
    typealias Handler = @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

    private let handler: Handler
    /// The requests sent so far (the only mutable state, behind a lock).
    private let recorded = LockedBox<[URLRequest]>([])

    init(_ handler: @escaping Handler) { self.handler = handler }

    /// Answers every request with `status`, `body` and `headers`.
    convenience init(status: Int = 200, body: String = "", headers: [String: String] = [:]) {
        self.init { request in
            (Data(body.utf8), try makeResponse(status, for: request, headers: headers))
        }
    }

    /// Fails every request with `error`.
    convenience init(failingWith error: any Error) {
        self.init { _ in throw error }
    }

    /// The requests sent so far.
    var requests: [URLRequest] { recorded.value }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        recorded.withLock { $0.append(request) }
        return try await handler(request)
    }
}

/// A value behind a lock.
// @unchecked Sendable: `storage` is only read or written while `lock` is held (see `withLock`).
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value

    init(_ value: Value) { storage = value }

    var value: Value { withLock { $0 } }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }
}

struct TestSupportError: Error {}

/// An HTTP response for `request`.
func makeResponse(_ status: Int, for request: URLRequest, headers: [String: String] = [:]) throws -> HTTPURLResponse {
    let url = try requireURL(request.url?.absoluteString ?? "")
    guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
    else { throw TestSupportError() }
    return response
}

/// A URL from a literal, without `!`.
func requireURL(_ string: String) throws -> URL {
    guard let url = URL(string: string) else { throw TestSupportError() }
    return url
}

/// `https://api.example.com` + `path`.
func apiURL(_ path: String = "") throws -> URL { try requireURL("https://api.example.com" + path) }

/// An HTTP 200 response for `https://api.example.com`.
func okResponse(_ status: Int = 200) throws -> HTTPURLResponse {
    try makeResponse(status, for: URLRequest(url: apiURL()))
}

struct User: Codable, Equatable, Sendable {
    var name: String
    var location: String?
}

extension Data {
    /// The data as UTF-8 text.
    var text: String { String(decoding: self, as: UTF8.self) }
}
