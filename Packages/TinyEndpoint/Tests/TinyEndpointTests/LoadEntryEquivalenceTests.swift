import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyEndpoint

#if canImport(Glibc)
    import Glibc
#endif

/// One scenario through every entry a user loads an endpoint with (`URLSession.shared.load` async and with a
/// callback, `dataTask(endpoint:)`, the same on a session built without a delegate and on one with its own,
/// `URLSessionTransport.load` async and with a callback, `TinyAPIClient`): a `401` carrying `WWW-Authenticate: Basic`,
/// a refused header and method, a cancellation before and after the request was sent, a timeout, a refused
/// connection. They promise the same outcome whichever is picked. Then what only the callback forms promise: called
/// once, on the session's delegate queue, and the returned task cancels.
@Suite(.timeLimit(.minutes(1))) struct LoadEntryEquivalenceTests {
    #if canImport(Glibc) && canImport(FoundationNetworking)
        /// A session built without a delegate, and one with a delegate of its own, kept for the whole suite; their
        /// configuration times a request out after a second (the one timeout a `TinyAPIEndpoint` can be given).
        private static let plain = URLSession(configuration: oneSecond())
        private static let delegated = URLSession(
            configuration: oneSecond(), delegate: ChallengeCancellingDelegate(), delegateQueue: nil)
        private static let transport = URLSessionTransport(configuration: oneSecond())

        private static func oneSecond() -> URLSessionConfiguration {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 1
            return configuration
        }

        /// Every entry: its name, and how it starts loading an endpoint, calling back with the outcome; it returns
        /// what cancels the load (the task it returned, or the task awaiting it).
        private static func entries() -> [Entry] {
            var entries = [Entry]()
            for (name, session) in [
                ("URLSession.shared", URLSession.shared), ("no delegate", plain), ("own", delegated),
            ] {
                entries.append(.async("\(name): load async") { try await session.load($0) })
                entries.append(
                    Entry(name: "\(name): load callback") { endpoint, done in
                        let task = session.load(endpoint) { done($0.map { _ in }) }
                        return { task.cancel() }
                    })
                entries.append(
                    Entry(name: "\(name): dataTask(endpoint:)") { endpoint, done in
                        let task = session.dataTask(endpoint: endpoint) { done($0.map { _ in }) }
                        task.resume()
                        return { task.cancel() }
                    })
            }
            entries.append(.async("URLSessionTransport: load async") { try await transport.load($0) })
            entries.append(
                Entry(name: "URLSessionTransport: load callback") { endpoint, done in
                    let task = transport.load(endpoint) { done($0.map { _ in }) }
                    return { task.cancel() }
                })
            for (name, client) in [
                ("TinyAPIClient(URLSessionTransport)", TinyAPIClient(transport: transport)),
                ("TinyAPIClient(URLSession no delegate)", TinyAPIClient(transport: plain)),
            ] {
                entries.append(
                    .async(name) { endpoint in
                        _ = try await client.requestData(Resource(endpoint.request))
                    })
            }
            return entries
        }

        /// The outcome of loading `endpoint` with `entry` (cancelled at once when `cancelled`, or once `server` saw
        /// it when `cancelledAfter`).
        private static func outcome(
            _ entry: Entry, _ endpoint: Endpoint<()>, cancelled: Bool = false,
            cancelledAfter server: EntryServer? = nil
        ) async -> String {
            let (results, continuation) = AsyncStream.makeStream(of: Result<Void, any Error>.self)
            let cancel = entry.start(endpoint) { continuation.yield($0) }
            if cancelled { cancel() }
            if let server, let path = endpoint.request.url?.path {
                await server.waitForArrival(of: path)
                cancel()
            }
            for await result in results { return describe(result) }
            return "no outcome"
        }

        /// A result in a few words: the status and challenge of a refused response, or the code of the failure (for a
        /// `TinyAPIError`, of the `HTTPTransportError` it keeps, after its kind).
        private static func describe(_ result: Result<Void, any Error>) -> String {
            switch result {
            case .success: return "success"
            case .failure(let error as TinyAPIError):
                return "\(error.kind) " + describe(.failure(error.underlyingError ?? error))
            case .failure(let error as HTTPTransportError):
                guard case .unacceptableStatus(let status) = error.code else { return "\(error.code)" }
                return "\(status) \(error.response?.value(forHTTPHeaderField: "WWW-Authenticate") ?? "")"
            case .failure(let error): return "not an HTTPTransportError: \(error)"
            }
        }

        /// What every entry but `TinyAPIClient` says, and what `TinyAPIClient` says for it.
        private static func expect(
            _ outcome: String, of entry: Entry, is expected: String, tinyAPI kind: TinyAPIError.Kind,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let wanted = entry.name.hasPrefix("TinyAPIClient") ? "\(kind) \(expected)" : expected
            #expect(outcome == wanted, "\(entry.name)", sourceLocation: sourceLocation)
        }

        private static func failure(_ code: HTTPTransportError.Code) -> String { "\(code)" }

        @Test func a401WithABasicChallengeIsA401OnEveryEntry() async throws {
            let server = try EntryServer { _ in
                .reply(EntryServer.response(401, headers: [#"WWW-Authenticate: Basic realm="entries""#], body: "no"))
            }
            let endpoint = Endpoint<()>(.get, url: try server.url("/protected"), timeOutInterval: 20)
            for entry in Self.entries() {
                Self.expect(
                    await Self.outcome(entry, endpoint), of: entry, is: #"401 Basic realm="entries""#,
                    tinyAPI: .httpError(401))
            }
        }

        @Test func aRefusedHeaderOrMethodFailsBeforeSendingOnEveryEntry() async throws {
            let server = try EntryServer { _ in .reply(EntryServer.response(200)) }
            let header = Endpoint<()>(.get, url: try server.url("/header"), headers: ["X-Note": "a\r\nX-Injected: yes"])
            let method = Endpoint<()>(HTTPMethod(rawValue: "GET /elsewhere HTTP/1.1\r\nX:"), url: try server.url("/m"))
            for entry in Self.entries() {
                let refused = Self.failure(.invalidRequest)
                let kind = TinyAPIError.Kind.networkError("")
                let headerOutcome = await Self.outcome(entry, header)
                let methodOutcome = await Self.outcome(entry, method)
                if entry.name.hasPrefix("TinyAPIClient") {
                    #expect(headerOutcome.hasSuffix(" \(refused)"), "\(entry.name): \(headerOutcome)")
                    #expect(methodOutcome.hasSuffix(" \(refused)"), "\(entry.name): \(methodOutcome)")
                } else {
                    Self.expect(headerOutcome, of: entry, is: refused, tinyAPI: kind)
                    Self.expect(methodOutcome, of: entry, is: refused, tinyAPI: kind)
                }
            }
            #expect(server.paths.isEmpty)
        }

        @Test func aCancellationAtOnceIsCancelledOnEveryEntry() async throws {
            let server = try EntryServer { _ in .hold }
            let endpoint = Endpoint<()>(.get, url: try server.url("/early"))
            for entry in Self.entries() {
                Self.expect(
                    await Self.outcome(entry, endpoint, cancelled: true), of: entry, is: Self.failure(.cancelled),
                    tinyAPI: .cancelled)
            }
        }

        @Test func aCancellationAfterSendingIsCancelledOnEveryEntry() async throws {
            let server = try EntryServer { _ in .hold }
            for entry in Self.entries() {
                let endpoint = Endpoint<()>(.get, url: try server.url("/late/\(UUID().uuidString)"))
                Self.expect(
                    await Self.outcome(entry, endpoint, cancelledAfter: server), of: entry,
                    is: Self.failure(.cancelled), tinyAPI: .cancelled)
            }
        }

        @Test func aTimeoutIsTimedOutOnEveryEntry() async throws {
            let server = try EntryServer { _ in .hold }
            let endpoint = Endpoint<()>(.get, url: try server.url("/slow"), timeOutInterval: 1)
            let outcomes = await withTaskGroup(of: (Entry, String).self) { group in
                for entry in Self.entries() { group.addTask { (entry, await Self.outcome(entry, endpoint)) } }
                return await group.reduce(into: [(Entry, String)]()) { $0.append($1) }
            }
            for (entry, outcome) in outcomes {
                let kind = TinyAPIError.Kind.networkError("")
                if entry.name.hasPrefix("TinyAPIClient") {
                    #expect(outcome.hasSuffix(" \(Self.failure(.timedOut))"), "\(entry.name): \(outcome)")
                } else {
                    Self.expect(outcome, of: entry, is: Self.failure(.timedOut), tinyAPI: kind)
                }
            }
        }

        @Test func aRefusedConnectionIsCannotConnectOnEveryEntry() async throws {
            let endpoint = Endpoint<()>(.get, url: try #require(URL(string: "http://127.0.0.1:1/")))
            for entry in Self.entries() {
                let outcome = await Self.outcome(entry, endpoint)
                if entry.name.hasPrefix("TinyAPIClient") {
                    #expect(outcome.hasSuffix(" \(Self.failure(.cannotConnect))"), "\(entry.name): \(outcome)")
                } else {
                    Self.expect(outcome, of: entry, is: Self.failure(.cannotConnect), tinyAPI: .networkError(""))
                }
            }
        }

        /// The callback forms of `URLSession` (`load(_:onComplete:)`, `dataTask(endpoint:completionHandler:)`) call back
        /// once, on the session's delegate queue ("Called once, on the session's delegate queue"), whatever the
        /// outcome: a `401` whose challenge was cancelled, a refused request (its placeholder task), a task cancelled
        /// after it was sent (and cancelled again after its callback), a refused connection; on `URLSession.shared`,
        /// a session without a delegate and one with its own, each with a queue of its own.
        @Test func theCallbackFormsCallBackOnceOnTheSessionsDelegateQueue() async throws {
            let server = try EntryServer { head in
                switch head.split(separator: " ").dropFirst().first {
                case "/protected":
                    .reply(EntryServer.response(401, headers: [#"WWW-Authenticate: Basic realm="q""#], body: "no"))
                case "/ok": .reply(EntryServer.response(200))
                default: .hold
                }
            }
            let (plainQueue, ownQueue) = (OperationQueue(), OperationQueue())
            plainQueue.maxConcurrentOperationCount = 1
            ownQueue.maxConcurrentOperationCount = 1
            let plain = URLSession(configuration: .ephemeral, delegate: nil, delegateQueue: plainQueue)
            let own = URLSession(
                configuration: .ephemeral, delegate: ChallengeCancellingDelegate(), delegateQueue: ownQueue)
            defer {
                plain.finishTasksAndInvalidate()
                own.finishTasksAndInvalidate()
            }
            let scenarios: [(String, Endpoint<()>, cancel: Bool)] = [
                ("401", Endpoint(.get, url: try server.url("/protected")), false),
                ("refused", Endpoint(.get, url: try server.url("/header"), headers: ["X-Note": "a\nb"]), false),
                ("cancelled", Endpoint(.get, url: try server.url("/held")), true),
                ("no server", Endpoint(.get, url: try requireURL("http://127.0.0.1:1/")), false),
            ]
            let barrier = Endpoint<()>(.get, url: try server.url("/ok"))
            for (name, session) in [("URLSession.shared", URLSession.shared), ("no delegate", plain), ("own", own)] {
                for form in CallbackForm.allCases {
                    for (scenario, endpoint, cancel) in scenarios {
                        let label = "\(name), \(form), \(scenario)"
                        let calls = Locked([Bool]())
                        let (first, firstDone) = AsyncStream.makeStream(of: Void.self)
                        let task = form.start(session, endpoint) { _ in
                            calls.withLock { $0.append(OperationQueue.current === session.delegateQueue) }
                            firstDone.yield()
                        }
                        if cancel {
                            await server.waitForArrival(of: "/held")
                            task.cancel()
                        }
                        for await _ in first { break }
                        task.cancel()  // after its callback: no second one
                        // A later load through the same session and form, called back on the same serial queue.
                        await withCheckedContinuation { continuation in
                            _ = form.start(session, barrier) { _ in continuation.resume() }
                        }
                        #expect(calls.withLock { $0 } == [true], "\(label)")
                    }
                }
            }
        }

        /// "Called once … an `HTTPTransportError` for transport failures (code `cancelled` when the task was
        /// cancelled)". An app's delegate that asks the user for a password keeps the challenge of a `401` open; the
        /// user gives up and the app cancels the load. `load` async then fails as cancelled, but the callback forms
        /// take any cancellation of a task whose response is a `401` on a session with another delegate for a
        /// challenge that delegate cancelled (`delegate?.cancelledChallenge(of:) ?? hasDelegate`, URLSession+Send.swift)
        /// and hand back the `401` as the server's answer.
        @Test func aLoadCancelledDuringAnOpenChallengeIsCancelledOnEveryEntry() async throws {
            let server = try EntryServer { _ in
                .reply(EntryServer.response(401, headers: [#"WWW-Authenticate: Basic realm="ask""#], body: "no"))
            }
            let delegate = PromptingDelegate()
            let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
            defer { session.invalidateAndCancel() }
            var outcomes = [String: String]()
            for entry in [
                Entry.async("load async") { try await session.load($0) },
                Entry(name: "load callback") { endpoint, done in
                    let task = session.load(endpoint) { done($0.map { _ in }) }
                    return { task.cancel() }
                },
                Entry(name: "dataTask(endpoint:)") { endpoint, done in
                    let task = session.dataTask(endpoint: endpoint) { done($0.map { _ in }) }
                    task.resume()
                    return { task.cancel() }
                },
            ] {
                let endpoint = Endpoint<()>(.get, url: try server.url("/ask/\(UUID().uuidString)"))
                let (results, continuation) = AsyncStream.makeStream(of: Result<Void, any Error>.self)
                let cancel = entry.start(endpoint) { continuation.yield($0) }
                await delegate.waitForChallenge(of: endpoint.request.url)
                cancel()
                for await result in results {
                    outcomes[entry.name] = Self.describe(result)
                    break
                }
            }
            #expect(outcomes["load async"] == Self.failure(.cancelled))
            withKnownIssue(
                "callback forms take a cancel() during an open 401 challenge for a cancelled one (URLSession+Send.swift:89)"
            ) {
                #expect(outcomes["load callback"] == Self.failure(.cancelled))
                #expect(outcomes["dataTask(endpoint:)"] == Self.failure(.cancelled))
            }
        }
    #endif
}

#if canImport(Glibc) && canImport(FoundationNetworking)
    /// An entry a user loads an endpoint with.
    private struct Entry: Sendable {
        typealias Done = @Sendable (Result<Void, any Error>) -> Void
        let name: String
        /// Starts loading, calls `done` with the outcome, returns what cancels the load.
        let start: @Sendable (Endpoint<()>, @escaping Done) -> @Sendable () -> Void

        init(name: String, start: @escaping @Sendable (Endpoint<()>, @escaping Done) -> @Sendable () -> Void) {
            self.name = name
            self.start = start
        }

        /// An async entry, in a task of its own: cancelling that task cancels the load.
        static func async(_ name: String, _ load: @escaping @Sendable (Endpoint<()>) async throws -> Void) -> Entry {
            Entry(name: name) { endpoint, done in
                let task = Task { done(await Result { try await load(endpoint) }) }
                return { task.cancel() }
            }
        }
    }

    /// A callback form of `URLSession`.
    private enum CallbackForm: CaseIterable, CustomStringConvertible {
        case load, dataTask

        var description: String { self == .load ? "load(_:onComplete:)" : "dataTask(endpoint:)" }

        /// Starts loading `endpoint` with `session` in this form; the task it returns.
        func start(
            _ session: URLSession, _ endpoint: Endpoint<()>, done: @escaping @Sendable (Result<Void, any Error>) -> Void
        ) -> URLSessionDataTask {
            switch self {
            case .load: return session.load(endpoint, onComplete: done)
            case .dataTask:
                let task = session.dataTask(endpoint: endpoint, completionHandler: done)
                task.resume()
                return task
            }
        }
    }

    /// An endpoint of tinyAPI's shape sending what `request` sends.
    private struct Resource: TinyAPIEndpoint {
        var baseURL: String
        var path: String
        var method: HTTPMethod
        var headers: [String: String]?

        init(_ request: URLRequest) {
            let url = request.url
            baseURL = "http://\(url?.host ?? ""):\(url?.port ?? 80)"
            path = url?.path ?? ""
            method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
            headers = request.allHTTPHeaderFields
        }
    }

    /// A session delegate of an app: it cancels every authentication challenge, as TinyKit's own does on Linux.
    private final class ChallengeCancellingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            completionHandler(.cancelAuthenticationChallenge, nil)
        }
    }

    /// A session delegate of an app that asks the user for credentials: it keeps each authentication challenge open
    /// (until the session is invalidated), and tells who waits for it.
    private final class PromptingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
        typealias Answer = @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        /// The URLs of the requests whose challenge is open.
        private let open = Arrivals<URL?>()

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping Answer
        ) {
            open.record(task.originalRequest?.url)
        }

        /// Returns once the challenge of the request for `url` is open.
        func waitForChallenge(of url: URL?) async { await open.wait(for: url) }
    }

    /// Keys in the order they were recorded, and the tasks waiting for one of them to be.
    private final class Arrivals<Key: Equatable & Sendable>: Sendable {
        private let state = Locked<(keys: [Key], waiting: [(Key, CheckedContinuation<Void, Never>)])>(([], []))

        /// The keys recorded so far.
        var keys: [Key] { state.withLock { $0.keys } }

        /// Records `key`, resuming whoever waits for it.
        func record(_ key: Key) {
            let ready = state.withLock { state in
                state.keys.append(key)
                let ready = state.waiting.filter { $0.0 == key }.map(\.1)
                state.waiting.removeAll { $0.0 == key }
                return ready
            }
            for continuation in ready { continuation.resume() }
        }

        /// Returns once `key` has been recorded.
        func wait(for key: Key) async {
            await withCheckedContinuation { continuation in
                let recorded = state.withLock { state in
                    if state.keys.contains(key) { return true }
                    state.waiting.append((key, continuation))
                    return false
                }
                if recorded { continuation.resume() }
            }
        }
    }

    /// A TCP server on `127.0.0.1` (a port of the system's choosing), a thread per connection: it reads a request
    /// head, records its path, and either answers with the whole reply and closes, answers with the start of a reply
    /// and holds the connection, or holds it unanswered, until the client closes it (a cancelled or timed-out request).
    private final class EntryServer: Sendable {
        enum Answer: Sendable {
            case reply(String)
            case partial(String)
            case hold
        }

        let port: UInt16
        private let listener: Int32
        private let arrived = Arrivals<String>()

        /// The paths of the requests received so far.
        var paths: [String] { arrived.keys }

        init(answer: @escaping @Sendable (_ head: String) -> Answer) throws {
            let (listener, port) = try loopbackListener()
            self.listener = listener
            self.port = port
            let arrived = arrived
            Thread.detachNewThread {
                while case let connection = accept(listener, nil, nil), connection >= 0 {
                    Thread.detachNewThread {
                        let head = Self.readHead(connection)
                        let path = head.split(separator: " ").dropFirst().first.map(String.init) ?? ""
                        let reply = answer(head)
                        arrived.record(path)
                        if case .reply(let text) = reply { Self.write(text, to: connection) }
                        if case .partial(let text) = reply { Self.write(text, to: connection) }
                        if case .reply = reply {
                        } else {
                            var buffer = [UInt8](repeating: 0, count: 1024)
                            while recv(connection, &buffer, buffer.count, 0) > 0 {}
                        }
                        close(connection)
                    }
                }
                // Closed only here, once `accept` fails: closed by `deinit`, the descriptor could be reused by the
                // listener of the next server while this loop still accepts on it, answering that server's requests.
                close(listener)
            }
        }

        /// Stops listening; the accepting thread then closes the socket.
        deinit { shutdown(listener, Int32(SHUT_RDWR)) }

        /// A URL of this server.
        func url(_ path: String) throws -> URL { try requireURL("http://127.0.0.1:\(port)\(path)") }

        /// Returns once a request for `path` has arrived.
        func waitForArrival(of path: String) async { await arrived.wait(for: path) }

        private static func write(_ text: String, to connection: Int32) {
            _ = text.utf8CString.withUnsafeBufferPointer {
                send(connection, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL))
            }
        }

        /// Reads the request head, up to its blank line (the requests here have no body).
        private static func readHead(_ connection: Int32) -> String {
            var head = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !head.suffix(4).elementsEqual("\r\n\r\n".utf8) {
                let count = recv(connection, &buffer, buffer.count, 0)
                if count <= 0 { break }
                head += buffer[..<count]
            }
            return String(decoding: head, as: UTF8.self)
        }

        /// A response with `status`, `headers` and `body`, closing the connection.
        static func response(_ status: Int, headers: [String] = [], body: String = "") -> String {
            let lines = headers + ["Content-Length: \(body.utf8.count)", "Connection: close"]
            return "HTTP/1.1 \(status) Entry\r\n" + lines.map { $0 + "\r\n" }.joined() + "\r\n" + body
        }
    }
#endif
