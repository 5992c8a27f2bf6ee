import FlyingFox
import FlyingSocks
import Foundation
@_spi(TinyKit) import TinyHTTPTransport

/// A real HTTP server on `127.0.0.1` (a free port), started inside the test process: one per test, so tests
/// run in parallel.
///
/// ```swift
/// let server = try await TestServer.start()
/// defer { server.stop() }
/// await server.route("GET /users") { _ in .json(200, #"[{"id":1}]"#) }
/// let (data, response) = try await transport.send(URLRequest(url: server.url("/users")))
/// let seen = try #require(server.requests.first)   // method, path, query, headers, body as received
/// ```
///
/// Routes use FlyingFox's patterns (`"GET /users/:id"`, `"/files/*"`, `"POST,PUT /items"`); the first
/// registered route that matches answers. Requests no route matches go to the built-in routes, usable from any
/// test without registering anything:
///
/// | path | answers |
/// |---|---|
/// | `/echo` (any method, any subpath) | `200`, the request as the server saw it, a JSON-encoded ``RecordedRequest`` |
/// | `/status/<code>` | that status with the JSON body `{"status":<code>}` (no body for 1xx, 204, 304) |
/// | `/slow?seconds=2` | waits that long *before the headers*, then `200 {"slow":true}` |
/// | `/trickle?bytes=100&interval=0.1` | headers at once, then one byte per interval (`x`…) |
/// | `/redirect?to=/echo&status=302` | a redirect to `to` |
/// | `/gzip` | `200`, `Content-Encoding: gzip`, a gzip-compressed ``gzipJSON`` |
/// | `/bytes?count=1048576` | `200`, `application/octet-stream`, ``bytes(count:)`` |
/// | `/auth/basic` | `401` with `WWW-Authenticate: Basic realm="test"` and `{"error":"unauthorized"}`, unless the request carries `Authorization: Basic dXNlcjpwYXNz` (`user:pass`): then `200 {"authenticated":true}` |
/// | anything else | `404 {"error":"no route for <METHOD> <path>"}` |
///
/// A `HEAD` request gets the headers of the response its route gives (its `Content-Length` included) and no body.
///
/// Every request is recorded before it is answered (see ``requests`` and ``waitForRequests(count:timeout:)``),
/// and the server counts connections (see ``waitForClosedConnections(atLeast:timeout:)``), so a test can check
/// that a cancelled client really hung up.
public final class TestServer: Sendable {
    /// `http://127.0.0.1:<port>`, without a trailing slash.
    public let baseURL: URL
    /// The port the server listens on.
    public let port: UInt16

    private let http: HTTPServer
    private let runTask: Task<Void, any Error>
    private let state: SharedState

    /// The JSON text that `/gzip` sends compressed.
    public static let gzipJSON = #"{"compressed":true,"message":"hello, gzip"}"#

    /// The body `/bytes?count=<count>` sends: `count` bytes counting 0, 1, …, 250 and over again (251 is prime, so
    /// a chunk lost, repeated or swapped shows in any comparison).
    public static func bytes(count: Int) -> Data {
        Data((0..<max(count, 0)).map { UInt8(truncatingIfNeeded: $0 % 251) })
    }

    private init(http: HTTPServer, runTask: Task<Void, any Error>, state: SharedState, port: UInt16) {
        self.http = http
        self.runTask = runTask
        self.state = state
        self.port = port
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = Int(port)
        // The components are all valid, so `url` is never nil; the fallback only keeps this free of `!`.
        self.baseURL = components.url ?? URL(fileURLWithPath: "/")
    }

    deinit {
        let http = self.http
        let runTask = self.runTask
        Task {
            await http.stop()
            runTask.cancel()
        }
    }

    /// Starts a server on `127.0.0.1`, on a port the system picks, and returns once it accepts connections.
    ///
    /// - Throws: ``TestServerError`` when the server could not listen within `timeout` seconds.
    public static func start(timeout: TimeInterval = 30) async throws -> TestServer {
        let state = SharedState(State())
        let address = try sockaddr_in.inet(ip4: "127.0.0.1", port: 0)
        let http = HTTPServer(
            address: address, timeout: 600, logger: ConnectionCountingLogger(state: state),
            handler: RootHandler(state: state))
        let runTask = Task { try await http.run() }
        do {
            try await http.waitUntilListening(timeout: timeout)
        } catch {
            runTask.cancel()
            throw TestServerError(message: "the test server did not start listening: \(error)")
        }
        guard case .ip4(_, let port) = await http.listeningAddress else {
            await http.stop()
            runTask.cancel()
            throw TestServerError(message: "the test server listens on no IPv4 address")
        }
        return TestServer(http: http, runTask: runTask, state: state, port: port)
    }

    /// Stops listening, closes the open connections and cancels the responses in progress (a delayed one is then
    /// answered `500` by FlyingFox before its connection closes). Stopping twice is harmless; a server that is no
    /// longer referenced stops by itself.
    public func stop() {
        let http = self.http
        let runTask = self.runTask
        Task {
            await http.stop()
            runTask.cancel()
        }
    }

    /// Stops the server and waits until it has.
    public func stopAndWait() async {
        await http.stop()
        runTask.cancel()
    }

    /// The URL of `pathAndQuery` on this server, for example `server.url("/users?page=2")`.
    ///
    /// A path without a leading `/` gets one. Text that does not form a valid URL gives the base URL with
    /// `pathAndQuery` percent-encoded as its path.
    public func url(_ pathAndQuery: String) -> URL {
        let suffix = pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery
        if let url = URL(string: baseURL.absoluteString + suffix) { return url }
        return baseURL.appendingPathComponent(pathAndQuery)
    }

    /// Registers a route: requests matching `pattern` (FlyingFox syntax, for example `"GET /users/:id"`) are
    /// answered by `handler`. Routes registered first win; built-in routes come after every registered route.
    public func route(
        _ pattern: String, handler: @escaping @Sendable (RecordedRequest) async throws -> TestResponse
    ) async {
        state.withLock { $0.routes.append((HTTPRoute(pattern), handler)) }
    }

    /// Registers a route that always answers `response`.
    public func route(_ pattern: String, response: TestResponse) async {
        await route(pattern) { _ in response }
    }

    /// Every request received so far, in arrival order.
    public var requests: [RecordedRequest] { state.withLock { $0.requests } }

    /// The number of connections accepted so far.
    public var openedConnections: Int { state.withLock { $0.openedConnections } }

    /// The number of connections closed so far (by the client, or by the server after a failed write).
    public var closedConnections: Int { state.withLock { $0.closedConnections } }

    /// The number of trickled bodies (``TestResponse/trickled(byteInterval:)``, `/trickle`) sent to the end.
    public var finishedTrickles: Int { state.withLock { $0.finishedTrickles } }

    /// Waits until at least `count` requests arrived, for at most `timeout` seconds, and returns those received.
    public func waitForRequests(count: Int = 1, timeout: TimeInterval = 30) async -> [RecordedRequest] {
        _ = await poll(timeout: timeout) { $0.requests.count >= count }
        return requests
    }

    /// Waits until at least `count` connections were closed, for at most `timeout` seconds.
    ///
    /// - Returns: Whether that many connections were closed in time.
    @discardableResult
    public func waitForClosedConnections(atLeast count: Int = 1, timeout: TimeInterval = 30) async -> Bool {
        await poll(timeout: timeout) { $0.closedConnections >= count }
    }

    private func poll(timeout: TimeInterval, until condition: (State) -> Bool) async -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            if state.withLock({ condition($0) }) { return true }
            if Date() >= deadline || Task.isCancelled { return false }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
    }
}

/// The test server could not start.
public struct TestServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    /// What went wrong.
    public var description: String { message }
}

typealias RouteHandler = @Sendable (RecordedRequest) async throws -> TestResponse

struct State: Sendable {
    var routes: [(HTTPRoute, RouteHandler)] = []
    var requests: [RecordedRequest] = []
    var openedConnections = 0
    var closedConnections = 0
    var finishedTrickles = 0
}

/// The state shared by the server's handler, its logger and the ``TestServer`` object.
typealias SharedState = Locked<State>

/// Counts connections from FlyingFox's log lines `"<host> open connection"` and `"<host> close connection"`
/// (its only signal of a connection's life; checked with FlyingFox 0.27.1).
struct ConnectionCountingLogger: Logging {
    let state: SharedState

    func logInfo(_ info: @autoclosure () -> String) {
        let line = info()
        if line.hasSuffix(" open connection") {
            state.withLock { $0.openedConnections += 1 }
        } else if line.hasSuffix(" close connection") {
            state.withLock { $0.closedConnections += 1 }
        }
    }

    func logDebug(_ debug: @autoclosure () -> String) {}
    func logWarning(_ warning: @autoclosure () -> String) {}
    func logError(_ error: @autoclosure () -> String) {}
    func logCritical(_ critical: @autoclosure () -> String) {}
}
