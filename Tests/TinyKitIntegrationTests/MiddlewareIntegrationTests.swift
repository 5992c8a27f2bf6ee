import Foundation
import Testing
import TinyKit
import TinyKitTestServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Refreshes `Bearer expired` to `Bearer fresh`, counting its refreshes.
private actor ExpiringTokens: CredentialProvider {
    private var token = "expired"
    private(set) var refreshes = 0

    func credential() -> String? { "Bearer \(token)" }

    func refreshCredential(rejected: String?) -> String {
        refreshes += 1
        token = "fresh"
        return "Bearer \(token)"
    }
}

/// The transport middleware over `URLSessionTransport` and a real HTTP server on 127.0.0.1.
@Suite struct MiddlewareIntegrationTests {
    let transport = URLSessionTransport(configuration: .ephemeral)
    /// Skips every wait (still noticing cancellation).
    let instant = TestClock()

    @Test func retriesARealServiceUnavailableThenSucceeds() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let answered = CallCounter()
        await server.route("GET /flaky") { _ in
            answered.next() == 0 ? .json(503, #"{"error":"busy"}"#, headers: ["Retry-After": "1"]) : .json(200, "[]")
        }
        let retrying = transport.with(.retry(RetryPolicy(maxAttempts: 3), clock: instant))

        let (body, response) = try await bounded { try await retrying.send(URLRequest(url: server.url("/flaky"))) }

        #expect(response.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == "[]")
        #expect(server.requests.map(\.path) == ["/flaky", "/flaky"])
    }

    @Test func refreshesTheCredentialAfterARealUnauthorized() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /me") { request in
            request.header("Authorization") == "Bearer fresh" ? .json(200, #"{"name":"Ada"}"#) : .unauthorized()
        }
        let tokens = ExpiringTokens()
        let authorized = transport.with(.retry(clock: instant), .authorization(tokens))

        let (body, response) = try await bounded { try await authorized.send(URLRequest(url: server.url("/me"))) }

        #expect(response.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == #"{"name":"Ada"}"#)
        #expect(server.requests.map { $0.header("Authorization") } == ["Bearer expired", "Bearer fresh"])
        #expect(await tokens.refreshes == 1)
    }
}

/// Counts calls from any thread.
// @unchecked Sendable: `value` is only read and written while holding `lock`.
private final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value - 1
    }
}
