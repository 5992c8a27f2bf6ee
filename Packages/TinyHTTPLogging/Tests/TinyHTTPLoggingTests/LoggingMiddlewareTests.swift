import Foundation
import InMemoryLogging
import Logging
import Testing
import TinyHTTPLogging
import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport answering with a closure, per test.
struct ClosureTransport: HTTPTransport {
    let handler: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) { try await handler(request) }
}

/// A response to `request` with `status`, `headers` and a text body.
func reply(_ request: URLRequest, _ status: Int, headers: [String: String] = [:], body: String = "") throws -> (
    Data, HTTPURLResponse
) {
    let url = try #require(request.url)
    let response = try #require(
        HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers))
    return (Data(body.utf8), response)
}

/// A logger whose entries stay in memory, and the handler that holds them.
func memoryLogger(level: Logger.Level) -> (Logger, InMemoryLogHandler) {
    let handler = InMemoryLogHandler()
    var logger = Logger(label: "test") { _ in handler }
    logger.logLevel = level
    return (logger, handler)
}

/// A clock whose `now` returns `times` in turn (the last one forever) and whose waits are instant.
func steppingClock(_ times: [Double]) -> MiddlewareClock {
    let index = Counter()
    return MiddlewareClock(
        now: { times[min(index.next(), times.count - 1)] },
        sleep: { _ in try Task.checkCancellation() })
}

// @unchecked Sendable: `value` is only read and written while holding `lock`.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value - 1
    }
}

@Suite struct LoggingMiddlewareTests {
    let secrets = ["t0ken", "c00kie", "s3ssion", "k3y", "s1g", "pr0xy", "cust0m"]

    /// A GET carrying every kind of secret, answered by a 200 that sets a cookie.
    func exchange(level: Logger.Level, redaction: HTTPRedaction = .default) async throws -> [InMemoryLogHandler.Entry] {
        let (logger, handler) = memoryLogger(level: level)
        let transport = ClosureTransport { request in
            try reply(request, 200, headers: ["Set-Cookie": "id=s3ssion", "X-Server": "fox"], body: #"{"ok":true}"#)
        }.with(.logging(logger, redaction: redaction, clock: steppingClock([1, 1.012])))
        let url = try #require(URL(string: "https://api.example.com/items?page=2&api_key=k3y&sig=s1g"))
        var request = URLRequest(method: .get, url: url)
        request.setValue("Bearer t0ken", forHTTPHeaderField: "Authorization")
        request.setValue("a=c00kie", forHTTPHeaderField: "Cookie")
        request.setValue("Basic pr0xy", forHTTPHeaderField: "Proxy-Authorization")
        request.setValue("cust0m", forHTTPHeaderField: "X-Custom-Token")
        request.setValue("application/json", forHTTPHeaderField: "Accept")

        _ = try await transport.send(request)
        return handler.entries
    }

    @Test func logsOneLinePerRequestAndResponse() async throws {
        let entries = try await exchange(level: .info)

        #expect(entries.map(\.level) == [.info, .info])
        #expect(
            entries.map(\.message.description) == [
                "→ GET https://api.example.com/items?page=2&api_key=***&sig=s1g (0 bytes)",
                "← 200 GET https://api.example.com/items?page=2&api_key=***&sig=s1g (11 bytes, 12 ms)",
            ])
        #expect(entries.allSatisfy { $0.metadata.isEmpty })
    }

    @Test func headersAndBodiesOnlyAtTraceLevelAndRedacted() async throws {
        let redaction = HTTPRedaction.default.adding(headers: ["x-custom-token"], queryParameters: ["SIG"])
        let entries = try await exchange(level: .trace, redaction: redaction)

        #expect(entries.map(\.level) == [.info, .trace, .info, .trace])
        let requestHeaders = try #require(entries[1].metadata["headers"])
        guard case .dictionary(let sent) = requestHeaders else {
            Issue.record("headers are not a dictionary: \(requestHeaders)")
            return
        }
        #expect(sent["Authorization"] == "***")
        #expect(sent["Cookie"] == "***")
        #expect(sent["Proxy-Authorization"] == "***")
        #expect(sent["X-Custom-Token"] == "***")
        #expect(sent["Accept"] == "application/json")
        let responseHeaders = try #require(entries[3].metadata["headers"])
        guard case .dictionary(let received) = responseHeaders else {
            Issue.record("headers are not a dictionary: \(responseHeaders)")
            return
        }
        #expect(received["Set-Cookie"] == "***")
        #expect(received["X-Server"] == "fox")
        #expect(entries[3].metadata["body"] == #"{"ok":true}"#)
        #expect(entries[0].message.description.contains("sig=***"))
    }

    @Test(arguments: [Logger.Level.trace, .debug, .info])
    func secretsNeverAppearAnywhere(level: Logger.Level) async throws {
        let redaction = HTTPRedaction.default.adding(headers: ["X-Custom-Token"], queryParameters: ["sig"])
        let entries = try await exchange(level: level, redaction: redaction)

        let everything = entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(!entries.isEmpty)
        for secret in secrets {
            #expect(!everything.contains(secret), "\(secret) was logged")
        }
    }

    @Test func theUsualSecretHeadersAreRedactedEvenByARedactionWithoutThem() async throws {
        let entries = try await exchange(level: .trace, redaction: HTTPRedaction(headers: ["X-Custom-Token"]))

        let everything = entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        for secret in ["t0ken", "c00kie", "s3ssion", "pr0xy", "cust0m"] {
            #expect(!everything.contains(secret), "\(secret) was logged")
        }
        #expect(everything.contains("api_key=k3y"))  // query parameters stay as the redaction names them
    }

    @Test func nothingBelowTheLoggersLevel() async throws {
        let entries = try await exchange(level: .notice)
        #expect(entries.isEmpty)
    }

    @Test func failuresAreLoggedAtWarningWithoutSecrets() async throws {
        let (logger, handler) = memoryLogger(level: .info)
        let transport = ClosureTransport { request in
            throw HTTPTransportError(mapping: URLError(.timedOut), request: request)
        }.with(.logging(logger, clock: steppingClock([0, 2.5])))
        let url = try #require(URL(string: "https://api.example.com/me?access_token=t0ken"))

        await #expect(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: url))
        }

        let entries = handler.entries
        #expect(entries.map(\.level) == [.info, .warning])
        let line = try #require(entries.last).message.description
        #expect(
            line.hasPrefix(
                "✗ GET https://api.example.com/me?access_token=*** failed after 2500 ms: HTTP request timed out"))
        #expect(line.contains("URLError -1001"))
        #expect(!line.contains("t0ken"))
    }

    @Test func eachAttemptIsLoggedBelowTheRetryMiddleware() async throws {
        let (logger, handler) = memoryLogger(level: .info)
        let count = Counter()
        let transport = ClosureTransport { request in
            try reply(request, count.next() == 0 ? 503 : 200)
        }.with(
            .retry(RetryPolicy(jitter: 0), clock: steppingClock([0])),
            .logging(logger, clock: steppingClock([0])))
        let url = try #require(URL(string: "https://api.example.com/items"))

        _ = try await transport.send(URLRequest(method: .get, url: url))

        #expect(
            handler.entries.map(\.message.description) == [
                "→ GET https://api.example.com/items (0 bytes)",
                "← 503 GET https://api.example.com/items (0 bytes, 0 ms)",
                "→ GET https://api.example.com/items (attempt 2) (0 bytes)",
                "← 200 GET https://api.example.com/items (attempt 2) (0 bytes, 0 ms)",
            ])
    }

    @Test func logsAtTheChosenLevel() async throws {
        let (logger, handler) = memoryLogger(level: .debug)
        let transport = ClosureTransport { request in try reply(request, 204) }
            .with(.logging(logger, level: .debug, clock: steppingClock([0])))
        let url = try #require(URL(string: "https://api.example.com/items"))
        var request = URLRequest(method: .post, url: url)
        request.httpBody = Data("abc".utf8)

        _ = try await transport.send(request)

        #expect(handler.entries.map(\.level) == [.debug, .debug])
        #expect(handler.entries.first?.message.description == "→ POST https://api.example.com/items (3 bytes)")
    }
}
