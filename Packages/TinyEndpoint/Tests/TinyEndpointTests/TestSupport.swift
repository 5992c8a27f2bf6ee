import Foundation
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport

/// A transport answering every request with a closure, recording what it was sent: one per test.
final class StubTransport: HTTPTransport {
    typealias Handler = @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

    private let handler: Handler
    /// The requests sent so far (the only mutable state, behind a lock).
    private let recorded = Locked<[URLRequest]>([])

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
    var requests: [URLRequest] { recorded.withLock { $0 } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        recorded.withLock { $0.append(request) }
        return try await handler(request)
    }
}

/// A test clock: every sleep returns at once (still noticing cancellation), moves `now` to its deadline and is
/// recorded.
final class RecordingClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let state = Locked((now: Instant(offset: .zero), sleeps: [Duration]()))

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }
    /// The durations slept, in order.
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(state.now.duration(to: deadline))
            state.now = max(state.now, deadline)
        }
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

extension Result {
    /// The failure, `nil` on success.
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
