import Foundation
@_spi(TinyKit) import TinyHTTPTransport

/// An `HTTPTransport` that answers from routes registered in code and from a directory of JSON files, and records
/// every request it receives: it goes under `Endpoint`, `TinyAPIClient` and everything built on them.
///
/// ```swift
/// let mock = MockTransport(files: .bundle(.module, subdirectory: "Fixtures"))
/// mock.register(.post, "/users", .status(201))
/// let (body, response) = try await mock.send(URLRequest(url: URL(fileURLWithPath: "/users")))
/// ```
///
/// For each request, in this order:
/// 1. The request is recorded (see ``requests``); a request that `URLRequest.validate()` refuses then fails with
///    code `invalidRequest`, as on a live transport.
/// 2. A registered route whose method, path and query match answers (see
///    ``register(_:_:query:delay:_:_:)``); with several, the one naming more query items, then the one
///    registered last.
/// 3. Otherwise the mock file the request maps to answers with status 200 (see ``MockFiles`` for the names).
/// 4. Otherwise the request fails with ``MockError/noMock(method:path:lookedFor:in:routes:)``.
///
/// The answer comes after the route's delay, or the mock's `delay`, waited on its `clock`; a delay longer than the
/// request's `timeoutInterval` fails as `timedOut` once that has passed, as on a live transport, and a cancelled
/// request uses up no answer of its route (a delay of exactly the `timeoutInterval` answers). An answer to `HEAD`,
/// and a `204` or `304`, has no body, as on the wire; a status no live transport answers with (an interim `1xx` but
/// `101`, or one outside 100–999) fails as `other`, naming it. Failures are thrown as `HTTPTransportError`, as from a
/// live transport: a ``MockError`` as its `underlyingError` (code
/// `invalidRequest` for ``MockError/unsafePath(path:reason:)``, `other` for the rest), and cancelling the
/// awaiting task, also during a delay, as code `cancelled` (with `URLError.cancelled`, as from `URLSession`).
///
/// A base URL's own path is part of the route and file names unless you pass it as `basePath`:
/// with `basePath: "/api/v4"`, `GET https://host/api/v4/users` maps to `mock_get_users.json` and the route
/// `"/users"`. Paths that do not start with the base path are used whole.
public final class MockTransport: HTTPTransport, Sendable {
    /// Where mock files are read from; `nil` for routes only.
    let files: MockFiles?
    /// The delay before every answer, unless its route has its own.
    let delay: Duration
    /// What delays are waited on.
    let clock: any Clock<Duration>
    /// The leading path segments taken off request paths before matching routes and naming files.
    let basePath: [String]
    private let state: Locked<State>

    /// The registered routes and the requests received, shared by every view of this mock (``stripping(basePath:)``).
    typealias State = (routes: [Route], requests: [URLRequest])

    struct Route: Sendable {
        let method: HTTPMethod
        /// The decoded path segments.
        let path: [String]
        /// The query items it requires, decoded (or as written where that is not UTF-8), in order.
        let query: [(name: String, value: String)]
        let delay: Duration?
        let responses: [MockResponse]
        /// The calls being waited for, and the latest delivered. The next call is the one after the latest of them,
        /// so an answer a cancelled request gives back goes to the next request unless a later one is waited for or
        /// was delivered: served after it, the sequence would run backwards.
        var waiting: Set<Int> = []
        var delivered = -1

        /// The route as `"GET /users"` or `"GET /search?q=swift"`, a `%`, `&`, `=` or `#` in a name or value escaped.
        var label: String {
            let query = query.map { "\(shown($0.name, escaping: "&=#"))=\(shown($0.value, escaping: "&=#"))" }
                .joined(separator: "&")
            return "\(method) \(MockTransport.path(of: path))" + (query.isEmpty ? "" : "?" + query)
        }

        /// Ends the wait for `call`'s answer: delivered (or timed out), or given back by a request cancelled while it
        /// waited, for the next one.
        mutating func finish(_ call: Int, waited: Result<Void, any Error>) {
            waiting.remove(call)
            if case .failure(let error) = waited, error is CancellationError { return }
            delivered = max(delivered, call)
        }
    }

    /// Creates a mock.
    ///
    /// - Parameters:
    ///   - files: Where to read mock files from (``MockFiles/bundle(_:subdirectory:)``,
    ///     ``MockFiles/init(directory:)``, `MockFiles.bundle(.main)`); `nil` (the default) to answer from routes only.
    ///   - basePath: Leading path segments to take off request paths, for example `"/api/v4"`.
    ///   - delay: The delay before every answer; none by default. For demos, 800 ms looks like a network; for
    ///     SwiftUI previews, 200 ms shows a loading state.
    ///   - clock: What delays are waited on; real time by default, a test clock to skip them.
    public convenience init(
        files: MockFiles? = nil, basePath: String = "", delay: Duration = .zero,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(
            files: files, basePath: Self.segments(of: basePath), delay: delay, clock: clock, state: Locked(([], [])))
    }

    private init(
        files: MockFiles?, basePath: [String], delay: Duration, clock: any Clock<Duration>, state: Locked<State>
    ) {
        self.files = files
        self.basePath = basePath
        self.delay = delay
        self.clock = clock
        self.state = state
    }

    /// A view of this mock that takes `basePath` off request paths; it shares this mock's routes and recording.
    /// This mock itself when `basePath` has no segments.
    func stripping(basePath: String) -> MockTransport {
        let segments = Self.segments(of: basePath)
        guard !segments.isEmpty else { return self }
        return MockTransport(files: files, basePath: segments, delay: delay, clock: clock, state: state)
    }

    /// The decoded segments of a path written as in a URL (`"/users/1"`, `"api/v4"`); a segment that is not valid
    /// percent-encoding of UTF-8 (`jos%E9`) as written.
    private static func segments(of pattern: String) -> [String] { pattern.split(separator: "/").map(decoded) }

    /// Percent-encoded text decoded, or kept as written where that is not UTF-8 (`%E9`).
    private static func decoded(_ written: some StringProtocol) -> String {
        written.removingPercentEncoding ?? String(written)
    }

    /// The query items of `components` as ``decoded(_:)`` reads them, a bare name (`?flag`) as the empty value.
    private static func queryItems(of components: URLComponents?) -> [(name: String, value: String)] {
        (components?.percentEncodedQueryItems ?? []).map { (decoded($0.name), decoded($0.value ?? "")) }
    }

    /// Makes requests matching `method`, `path` and `query` answer `response`, then `more` on successive calls;
    /// the last answer repeats.
    ///
    /// ```swift
    /// mock.register(.get, "/users", try .json(users))
    /// mock.register(.get, "/flaky", .status(503), .status(503), .json("[]"))
    /// mock.register(.get, "/search", query: ["q": "swift"], delay: .milliseconds(300), .json("[]"))
    /// ```
    ///
    /// - Parameters:
    ///   - method: The method to match.
    ///   - path: The path to match, written as in a URL (percent-encoded); empty segments and a trailing `/` do
    ///     not matter; a `basePath` is not part of it. A query written here (`"/search?q=swift"`) is matched as
    ///     `query` is, each of its items required (a name written twice, `tag=a&tag=b`, requires both values); a
    ///     fragment written here (`#top`) is ignored.
    ///   - query: Query items the request must have (others may be present too); none by default. A name here
    ///     replaces the same name written in `path`. Names and values are compared percent-decoded, or as written
    ///     where that is not UTF-8 (`%E9`); a bare `?flag` in a request is the empty value.
    ///   - delay: The delay of this route's answers; the mock's `delay` by default.
    ///   - response: The first answer.
    ///   - more: The answers to the following calls, in order.
    public func register(
        _ method: HTTPMethod, _ path: String, query: [String: String] = [:], delay: Duration? = nil,
        _ response: MockResponse, _ more: MockResponse...
    ) {
        // A query written in the path (`"/search?q=swift"`) is matched as `query` is; a fragment is no part of it.
        let (beforeFragment, pathOnly) = (path.prefix { $0 != "#" }, path.prefix { $0 != "?" && $0 != "#" })
        let written = Self.queryItems(of: URLComponents(string: String(beforeFragment.drop { $0 != "?" })))
        let given = query.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        let route = Route(
            method: method, path: Self.segments(of: String(pathOnly)),
            query: given + written.filter { query[$0.name] == nil }, delay: delay, responses: [response] + more)
        state.withLock { $0.routes.append(route) }
    }

    /// Every request received so far, in arrival order, as it was received.
    public var requests: [URLRequest] { state.withLock { $0.requests } }

    /// The registered routes, as `"GET /users"` or `"GET /search?q=swift"`, in registration order.
    var routes: [String] { state.withLock { $0.routes.map(\.label) } }

    /// Answers `request` from a route or a mock file, after the delay; see ``MockTransport``.
    ///
    /// - Throws: `HTTPTransportError`: `cancelled` when the awaiting task is cancelled, the mapped error of a
    ///   ``MockResponse/failure(_:)`` route, or a ``MockError`` as `underlyingError`.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        var recorded = false  // with the answer it takes, so that answers go in the order requests are recorded
        do {
            // Refused as URLSessionTransport refuses it (cancelled or not), so a test on the mock fails where the live
            // app would.
            try request.validate()
            try Task.checkCancellation()
            guard let url = request.url else { throw HTTPTransportError(.invalidRequest, request: request) }
            let method = request.method
            let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
            // Decoded, or as written where that is not UTF-8 (`%E9`): as `register` keeps a route's path.
            let written = (components?.percentEncodedPath ?? url.path).split(separator: "/")
            let base = written.starts(with: basePath) { Self.decoded($0) == $1 } ? basePath.count : 0
            let path = written[base...].map(Self.decoded)
            // Answers are taken in the order requests arrive, whatever their delays.
            let route = nextRouteAnswer(
                method: method, path: path, query: Self.queryItems(of: components), recording: request)
            recorded = true
            let response = try route?.response ?? fileResponse(method: method, written: written[base...])
            let waited = await Result { try await wait(route?.delay ?? delay, for: request) }
            // A request cancelled while it waits uses up no answer: the next request gets it.
            if let route { state.withLock { $0.routes[route.index].finish(route.call, waited: waited) } }
            try waited.get()
            switch response {
            case .failure(let error):
                throw error
            case .status(let status, let headers, let body):
                // As from a live transport: never an interim `1xx` (but `101`), which URLSession and AsyncHTTPClient
                // wait past, nor a status of other than three digits, which URLSession fails as no HTTP.
                let http = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
                guard let http, status == 101 || (200...999).contains(status) else {
                    let message = "cannot answer with status \(status): no live transport does"
                    throw HTTPTransportError(.other, request: request, message: message)
                }
                // As on the wire: no body for `HEAD`, `204` and `304`.
                return (request.method == .head || [204, 304].contains(status) ? Data() : body, http)
            }
        } catch {
            if !recorded { state.withLock { $0.requests.append(request) } }
            // As a live transport throws it (`URLSessionTransport`'s mapping), an unsafe path as `invalidRequest`.
            if case .unsafePath = error as? MockError {
                throw HTTPTransportError(.invalidRequest, request: request, underlyingError: error)
            }
            let live = error is CancellationError ? URLError(.cancelled) : error  // a cancellation as URLSession's
            throw HTTPTransportError(mapping: live, request: request)
        }
    }

    /// Waits `delay` on the clock, at most the request's `timeoutInterval` as a live transport does, failing as
    /// timed out after that; a delay of more than about 95 years is as good as never (`ContinuousClock` traps on one
    /// of 292).
    private func wait(_ delay: Duration, for request: URLRequest) async throws {
        let seconds = request.timeoutInterval
        // In whole nanoseconds: the `Double` 2.3 is just under 2.3 s, and a delay of 2300 ms must answer.
        let timeout = seconds > 0 && seconds < 3e9 ? Duration.nanoseconds(Int64((seconds * 1e9).rounded())) : nil
        if delay > .zero { try await clock.sleep(for: min(delay, timeout ?? .seconds(3e9))) }
        try Task.checkCancellation()
        if let timeout, delay > timeout { throw URLError(.timedOut) }
    }

    /// The answer of the best matching route, advancing its sequence, with its delay and where it was taken from
    /// (the route's index: routes are only ever added, and the call it answers); `nil` when no route matches.
    private func nextRouteAnswer(
        method: HTTPMethod, path: [String], query: [(name: String, value: String)], recording request: URLRequest
    ) -> (index: Int, call: Int, response: MockResponse, delay: Duration?)? {
        state.withLock { state in
            state.requests.append(request)
            // The matching route naming the most query items; among those, the one registered last. A bare `?flag`
            // is the empty value.
            let best = state.routes.indices.filter { index in
                let route = state.routes[index]
                return route.method == method && route.path == path
                    && route.query.allSatisfy { item in query.contains { $0 == item } }
            }.max { (state.routes[$0].query.count, $0) < (state.routes[$1].query.count, $1) }
            guard let best else { return nil }
            let route = state.routes[best]
            let call = max(route.delivered, route.waiting.max() ?? -1) + 1
            state.routes[best].waiting.insert(call)
            return (best, call, route.responses[min(call, route.responses.count - 1)], route.delay)
        }
    }

    /// Decoded segments as a path for messages, a `%`, `/`, `?` or `#` inside a segment written `%25`, `%2F`, `%3F`,
    /// `%23`.
    static func path(of segments: [String]) -> String {
        "/" + segments.map { shown($0, escaping: "/?#") }.joined(separator: "/")
    }

    /// Decoded text for a message: its `%` and the `characters` percent-encoded, so that it reads as no other text,
    /// and control characters and line separators, so that it stays on one line. Text that does not decode (kept as
    /// written, `%E9`) keeps its `%`.
    static func shown(_ text: String, escaping characters: String) -> String {
        MockFiles.percentEncoding(text.removingPercentEncoding == nil ? characters : "%" + characters, in: text)
    }

    /// The mock file's contents as a 200 response; `written` is the path's segments as sent, after the base path.
    private func fileResponse(method: HTTPMethod, written: ArraySlice<Substring>) throws -> MockResponse {
        let path = Self.path(of: written.map(Self.decoded))
        // `name` is `nil` when the mock has no files. A segment kept as written for routes (`%E9`, not UTF-8) names no
        // file: escaped, it would name another path's. `routes` (a listing made under the lock) is read only for the
        // error message, never on the answered path.
        let name = files == nil ? nil : try MockFiles.fileName(for: method, written: written, path: path)
        guard let files, let name, let file = try files.url(ofFileNamed: name, path: path) else {
            throw MockError.noMock(
                method: method, path: path, lookedFor: name, in: files?.directory.path, routes: routes)
        }
        do {
            return .status(200, headers: ["Content-Type": "application/json"], body: try Data(contentsOf: file))
        } catch {
            throw MockError.unreadableFile(path: file.path, reason: "\(error)")
        }
    }
}
