import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport

#if canImport(Glibc)
    import Glibc
#endif

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

/// The errors of an endpoint whose URL is invalid: the `EndpointError` its `makeRequest()` throws, which must be
/// `invalidURL`, and the `TinyAPIError` a client's request of it throws, which must be of kind `.invalidURL`. `nil`,
/// after recording an issue, when the first is another `EndpointError`.
func invalidURLErrors(
    of endpoint: TestAPIEndpoint, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> (endpoint: EndpointError, client: TinyAPIError)? {
    let error = try #require(throws: EndpointError.self, sourceLocation: sourceLocation) { try endpoint.makeRequest() }
    guard case .invalidURL = error else {
        Issue.record("expected invalidURL, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
    let client = TinyAPIClient(transport: StubTransport(status: 200, body: "[]"))
    let apiError = try await #require(throws: TinyAPIError.self, sourceLocation: sourceLocation) {
        try await client.request(endpoint, as: [String].self)
    }
    #expect(apiError.kind == .invalidURL, sourceLocation: sourceLocation)
    return (error, apiError)
}

#if canImport(Glibc)
    /// A TCP socket listening on 127.0.0.1, on a port of the system's choosing: its descriptor, for the caller to
    /// close, and its port.
    func loopbackListener() throws -> (socket: Int32, port: UInt16) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, address, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw TestSupportError()
        }
        return (listener, UInt16(bigEndian: address.sin_port))
    }
#endif
