import Foundation
import Testing

@_spi(TinyKit) @testable import TinyHTTPTransport

/// One scenario through every entry of this package that sends with `URLSession` (`URLSession.shared.send`, a session
/// built without a delegate and one with its own, `URLSessionTransport` built each way and `.shared`): a `401`
/// carrying `WWW-Authenticate: Basic`, a refused header and method, a cancellation before and after the request was
/// sent, a timeout, a refused connection and the body-size limit. They share one send path and promise the same
/// outcome (`URLSession.send(_:)`: "Behaves exactly like `URLSessionTransport.send(_:)`").
@Suite(.timeLimit(.minutes(1))) struct SendEntryEquivalenceTests {
    #if canImport(Glibc) && canImport(FoundationNetworking)
        /// A session built without a delegate, and one with a delegate of its own, kept for the whole suite.
        private static let plain = URLSession(configuration: .ephemeral)
        private static let delegated = URLSession(
            configuration: .ephemeral, delegate: ChallengeCancellingDelegate(), delegateQueue: nil)

        /// Every entry, by name, with what it sends through.
        private static func entries() -> [(name: String, send: @Sendable (URLRequest) async throws -> Reply)] {
            let transports: [(String, URLSessionTransport)] = [
                ("URLSessionTransport(configuration:)", URLSessionTransport(configuration: .ephemeral)),
                ("URLSessionTransport.shared", URLSessionTransport.shared),
                ("URLSessionTransport(session: no delegate)", URLSessionTransport(session: plain)),
                ("URLSessionTransport(session: own delegate)", URLSessionTransport(session: delegated)),
            ]
            let sessions: [(String, URLSession)] = [
                ("URLSession.shared.send", .shared), ("session without delegate .send", plain),
                ("session with own delegate .send", delegated),
            ]
            return sessions.map { name, session in (name, { try await session.send($0) }) }
                + transports.map { name, transport in (name, { try await transport.send($0) }) }
        }

        /// The outcome of `send` for `request`, in a few words: the status and challenge of a response, or the code of
        /// the `HTTPTransportError`.
        private static func outcome(
            _ send: @escaping @Sendable (URLRequest) async throws -> Reply, _ request: URLRequest
        ) async -> String {
            await describe(Result { try await send(request) })
        }

        /// The outcome of a failure with `code`.
        private static func failure(_ code: HTTPTransportError.Code) -> String { "\(code)" }

        private static func describe(_ result: Result<Reply, any Error>) -> String {
            switch result {
            case .success(let (_, response)):
                "\(response.statusCode) \(response.value(forHTTPHeaderField: "WWW-Authenticate") ?? "")"
            case .failure(let error as HTTPTransportError): "\(error.code)"
            case .failure(let error): "not an HTTPTransportError: \(error)"
            }
        }

        @Test func a401WithABasicChallengeIsA401ResponseOnEveryEntry() async throws {
            let server = try ScriptedHTTPServer { _ in
                ScriptedHTTPServer.response(401, headers: [#"WWW-Authenticate: Basic realm="entries""#], body: "no")
            }
            var request = URLRequest(url: try server.url("/protected"))
            request.timeoutInterval = 20  // an entry that hangs fails after this, not at the suite's limit
            for (name, send) in Self.entries() {
                #expect(await Self.outcome(send, request) == #"401 Basic realm="entries""#, "\(name)")
            }
        }

        @Test func aRefusedHeaderOrMethodFailsBeforeSendingOnEveryEntry() async throws {
            let server = try ScriptedHTTPServer(reply: ScriptedHTTPServer.response(200, body: "sent"))
            var header = URLRequest(url: try server.url("/header"))
            header.setHeader("X-Note", "a\r\nX-Injected: yes")
            var method = URLRequest(url: try server.url("/method"))
            method.httpMethod = "GET /elsewhere HTTP/1.1\r\nX:"
            for (name, send) in Self.entries() {
                #expect(await Self.outcome(send, header) == Self.failure(.invalidRequest), "\(name)")
                #expect(await Self.outcome(send, method) == Self.failure(.invalidRequest), "\(name)")
            }
            #expect(server.paths.isEmpty)
        }

        @Test func aCancellationBeforeSendingIsCancelledOnEveryEntry() async throws {
            let server = try ScriptedHTTPServer(reply: ScriptedHTTPServer.response(200, body: "sent"))
            let request = URLRequest(url: try server.url("/early"))
            for (name, send) in Self.entries() {
                let task = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return await Self.outcome(send, request)
                }
                #expect(await task.value == Self.failure(.cancelled), "\(name)")
            }
            #expect(server.paths.isEmpty)
        }

        @Test func aCancellationAfterSendingIsCancelledOnEveryEntry() async throws {
            let server = try ScriptedHTTPServer { _ in nil }  // holds every request
            for (name, send) in Self.entries() {
                let path = "/late/\(UUID().uuidString)"
                let request = URLRequest(url: try server.url(path))
                let task = Task { await Self.outcome(send, request) }
                await server.waitForArrival(of: path)
                task.cancel()
                #expect(await task.value == Self.failure(.cancelled), "\(name)")
            }
        }

        @Test func aTimeoutIsTimedOutOnEveryEntry() async throws {
            let server = try ScriptedHTTPServer { _ in nil }  // holds every request
            var slow = URLRequest(url: try server.url("/slow"))
            slow.timeoutInterval = 1
            let request = slow
            let outcomes = await withTaskGroup(of: (String, String).self) { group in
                for (name, send) in Self.entries() {
                    group.addTask { (name, await Self.outcome(send, request)) }
                }
                return await group.reduce(into: [String: String]()) { $0[$1.0] = $1.1 }
            }
            for (name, outcome) in outcomes.sorted(by: { $0.key < $1.key }) {
                #expect(outcome == Self.failure(.timedOut), "\(name)")
            }
        }

        @Test func aRefusedConnectionIsCannotConnectOnEveryEntry() async throws {
            let request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:1/none")))
            for (name, send) in Self.entries() {
                #expect(await Self.outcome(send, request) == Self.failure(.cannotConnect), "\(name)")
            }
        }

        /// `maximumResponseBodySize` holds on every transport whose session's delegate is TinyKit's (its own, or the
        /// twin of a session without one); a session with a delegate of its own reads bodies whole (documented).
        @Test func theBodySizeLimitHoldsOnEveryTransportThatOffersIt() async throws {
            let server = try ScriptedHTTPServer(
                reply: ScriptedHTTPServer.response(200, body: String(repeating: "x", count: 64)))
            let request = URLRequest(url: try server.url("/large"))
            let plain = URLSession(configuration: .ephemeral)
            defer { plain.finishTasksAndInvalidate() }
            let limited: [(String, URLSessionTransport)] = [
                ("configuration", URLSessionTransport(configuration: .ephemeral, maximumResponseBodySize: 8)),
                ("session without delegate", URLSessionTransport(session: plain, maximumResponseBodySize: 8)),
                ("URLSession.shared", URLSessionTransport(session: .shared, maximumResponseBodySize: 8)),
            ]
            for (name, transport) in limited {
                let result = await Result { try await transport.send(request) }
                let error = try #require(throws: HTTPTransportError.self, "\(name)") { try result.get() }
                #expect(error.code == .other, "\(name)")
                #expect(error.response?.statusCode == 200, "\(name)")
            }
        }

        /// A configuration whose `httpAdditionalHeaders` hold a header a request may not is refused on every entry
        /// built on it: a session without a delegate (its twin), one with its own, and the transport made from it.
        @Test func aRefusedConfigurationHeaderFailsBeforeSendingOnEveryEntry() async throws {
            let server = try ScriptedHTTPServer(reply: ScriptedHTTPServer.response(200, body: "sent"))
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["X-Token": "abc\r\nX-Injected: yes"]
            let (plain, own) = sessions(of: configuration)
            defer { for session in [plain, own] { session.finishTasksAndInvalidate() } }
            let request = URLRequest(url: try server.url("/configured"))
            let entries: [(String, @Sendable (URLRequest) async throws -> Reply)] = [
                ("session without delegate", { try await plain.send($0) }),
                ("session with own delegate", { try await own.send($0) }),
                (
                    "URLSessionTransport(configuration:)",
                    { try await URLSessionTransport(configuration: configuration).send($0) }
                ),
                (
                    "URLSessionTransport(session: own delegate)",
                    { try await URLSessionTransport(session: own).send($0) }
                ),
            ]
            for (name, send) in entries {
                #expect(await Self.outcome(send, request) == Self.failure(.invalidRequest), "\(name)")
            }
            #expect(server.paths.isEmpty)
        }

        /// Cookies a response sets through the twin of a session without a delegate are the session's own: its
        /// configuration's cookie storage holds them, and a plain data task of the session sends them, and back.
        @Test func aSessionAndItsTwinShareTheirCookies() async throws {
            let server = try ScriptedHTTPServer { head in
                let cookie = head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("cookie:") } ?? ""
                let login = ScriptedHTTPServer.path(of: head) == "/login"
                return ScriptedHTTPServer.response(
                    200, headers: login ? ["Set-Cookie: session=twin; Path=/"] : [], body: cookie)
            }
            let session = URLSession(configuration: .ephemeral)
            defer { session.finishTasksAndInvalidate() }
            _ = try await session.send(URLRequest(url: try server.url("/login")))
            #expect(session.configuration.httpCookieStorage?.cookies?.map(\.name) == ["session"])
            let plain = URLRequest(url: try server.url("/plain"))
            let plainBody = await withCheckedContinuation { continuation in
                session.dataTask(with: plain) { data, _, _ in continuation.resume(returning: data ?? Data()) }.resume()
            }
            #expect(String(decoding: plainBody, as: UTF8.self).contains("session=twin"))
            let (twinBody, _) = try await session.send(URLRequest(url: try server.url("/twin")))
            #expect(String(decoding: twinBody, as: UTF8.self).contains("session=twin"))
        }

        /// "On Linux a `timeoutInterval` (and a configuration's `timeoutIntervalForRequest`) with a fraction of a second
        /// is rounded up to whole seconds … the same on every entry". The configuration of a session with a delegate of
        /// its own was not: libcurl truncated its 0.5 s to 0, timing the request out at once, where the same
        /// configuration on a session without a delegate (its twin) waits the second. A server answering after 0.2 s.
        @Test func aSubSecondConfigurationTimeoutIsRoundedUpOnEverySession() async throws {
            let server = try ScriptedHTTPServer { _ in
                Thread.sleep(forTimeInterval: 0.2)
                return ScriptedHTTPServer.response(200, body: "late")
            }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 0.5
            let (plain, own) = sessions(of: configuration)
            defer { for session in [plain, own] { session.finishTasksAndInvalidate() } }
            let request = URLRequest(url: try server.url("/late"))
            #expect(await Self.outcome({ try await plain.send($0) }, request) == "200 ")
            // It was not rounded for a session with its own delegate (it timed out at once).
            #expect(await Self.outcome({ try await own.send($0) }, request) == "200 ")
            #expect(await Self.outcome({ try await URLSessionTransport(session: own).send($0) }, request) == "200 ")
        }
    #endif
}

#if canImport(Glibc) && canImport(FoundationNetworking)
    /// What an entry returns.
    private typealias Reply = (Data, HTTPURLResponse)

    /// Two sessions made from `configuration`: one without a delegate, and one with a delegate of its own (a
    /// ``ChallengeCancellingDelegate``). The caller invalidates both.
    private func sessions(of configuration: URLSessionConfiguration) -> (plain: URLSession, own: URLSession) {
        let own = URLSession(configuration: configuration, delegate: ChallengeCancellingDelegate(), delegateQueue: nil)
        return (URLSession(configuration: configuration), own)
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
#endif
