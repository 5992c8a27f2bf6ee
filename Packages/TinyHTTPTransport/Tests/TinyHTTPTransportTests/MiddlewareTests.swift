import Foundation
import Testing
import TinyHTTPTransport

@Suite(.timeLimit(.minutes(1))) struct MiddlewareTests {
    /// A middleware that records when the request passes it on the way in and the response on the way out.
    func tracing(_ name: String, into trace: Recorder<String>) -> HTTPMiddleware {
        HTTPMiddleware { request, next in
            trace.append("\(name) in")
            var request = request
            request.addValue(name, forHTTPHeaderField: "X-Trace")
            let result = try await next.send(request)
            trace.append("\(name) out")
            return result
        }
    }

    @Test func theFirstListedIsTheOutermost() async throws {
        let trace = Recorder<String>()
        let transport = ClosureTransport { request in
            trace.append("transport \(request.value(forHTTPHeaderField: "X-Trace") ?? "")")
            return try reply(request, 200)
        }.with(tracing("a", into: trace), tracing("b", into: trace), tracing("c", into: trace))

        _ = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(trace.all == ["a in", "b in", "c in", "transport a,b,c", "c out", "b out", "a out"])
    }

    @Test func noMiddlewareSendsStraightThrough() async throws {
        let transport = ClosureTransport { request in try reply(request, 204) }.with()
        #expect(try await transport.send(URLRequest(method: .get, url: testURL)).1.statusCode == 204)
    }

    @Test func retryOutsideAuthorizationRetriesWithTheCredential() async throws {
        let seen = Recorder<String>()
        let transport = ClosureTransport { request in
            seen.append(request.value(forHTTPHeaderField: "Authorization") ?? "none")
            return try reply(request, seen.all.count == 1 ? 503 : 200)
        }.with(.retry(RetryPolicy(jitter: 0), clock: RecordingClock()), .authorization(StaticCredential()))

        _ = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(seen.all == ["Bearer x", "Bearer x"])
    }

    @Test func defaultHeadersDoNotOverrideTheRequestsOwn() async throws {
        let seen = Recorder<[String: String]>()
        let transport = ClosureTransport { request in
            seen.append(request.allHTTPHeaderFields ?? [:])
            return try reply(request, 200)
        }.with(
            .defaultHeaders(["Accept": "application/json", "X-Client": "tiny"]),
            .defaultHeaders(["User-Agent": "Tiny/1.0"]))
        var request = URLRequest(method: .get, url: testURL)
        request.setValue("text/plain", forHTTPHeaderField: "accept")

        _ = try await transport.send(request)

        let headers = try #require(seen.all.first)
        #expect(headers.count == 3)
        #expect(headers.first { $0.key.lowercased() == "accept" }?.value == "text/plain")
        #expect(headers["X-Client"] == "tiny")
        #expect(headers["User-Agent"] == "Tiny/1.0")
    }

    @Test func defaultHeadersOverrideWhenAsked() async throws {
        let seen = Recorder<String?>()
        let transport = ClosureTransport { request in
            seen.append(request.value(forHTTPHeaderField: "User-Agent"))
            return try reply(request, 200)
        }.with(.defaultHeaders(["User-Agent": "Tiny/2.0"], overriding: true))
        var request = URLRequest(method: .get, url: testURL)
        request.setValue("Other/1.0", forHTTPHeaderField: "User-Agent")

        _ = try await transport.send(request)

        #expect(seen.all == ["Tiny/2.0"])
    }

    @Test func metricsReportStartFinishDurationAndBytes() async throws {
        let clock = RecordingClock()
        let started = Recorder<URLRequest>()
        let finished = Recorder<HTTPExchangeMetrics>()
        let transport = ClosureTransport { request in
            // The first exchange takes a quarter of a second on the injected clock, the second half a second.
            let first = started.all.count == 1
            clock.advance(by: first ? .milliseconds(250) : .milliseconds(500))
            return try reply(request, first ? 503 : 200, body: "12345")
        }.with(
            .retry(RetryPolicy(jitter: 0), clock: RecordingClock()),
            .metrics(clock: clock, started: { started.append($0) }) { finished.append($0) })
        var request = URLRequest(method: .put, url: testURL)
        request.httpBody = Data("abc".utf8)

        _ = try await transport.send(request)

        #expect(started.all == [request, request])
        let metrics = finished.all
        #expect(metrics.map(\.request) == [request, request])
        let exchanges = try metrics.map { try $0.result.get() }
        #expect(exchanges.map(\.response.statusCode) == [503, 200])
        #expect(exchanges.map(\.body) == [Data("12345".utf8), Data("12345".utf8)])
        #expect(metrics.map(\.duration) == [.milliseconds(250), .milliseconds(500)])
    }

    /// Above the retry middleware, a request is reported once; the attempts it took are in the error it failed with.
    @Test func metricsAboveRetryReportTheRequestOnceWithTheAttemptsInTheError() async throws {
        let clock = RecordingClock()
        let finished = Recorder<HTTPExchangeMetrics>()
        let transport = ClosureTransport { request in
            clock.advance(by: .seconds(1))
            return try reply(request, 503)
        }.with(
            .metrics(clock: clock) { finished.append($0) },
            .retry(RetryPolicy(maxAttempts: 3, baseDelay: .seconds(2), jitter: 0), clock: clock))

        await #expect(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        let metrics = try #require(finished.all.first)
        #expect(finished.all.count == 1)
        // Three sends of a second each and the waits between them (2 s, then 4 s), all on the same clock.
        #expect(metrics.duration == .seconds(9))
        let error = try #require(throws: HTTPTransportError.self) { try metrics.result.get() }
        #expect(error.code == .unacceptableStatus(503))
        #expect(error.attempts == 3)
    }

    @Test func metricsReportFailures() async throws {
        let finished = Recorder<HTTPExchangeMetrics>()
        let transport = ClosureTransport { request in
            throw HTTPTransportError(.cannotConnect, request: request)
        }.with(.metrics(clock: RecordingClock()) { finished.append($0) })

        await #expect(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        let metrics = try #require(finished.all.first)
        let error = try #require(throws: HTTPTransportError.self) { try metrics.result.get() }
        #expect(error.code == .cannotConnect)
    }
}

private struct StaticCredential: CredentialProvider {
    func credential() async throws -> String? { "Bearer x" }
    func refreshCredential(rejected: String?) async throws -> String { "Bearer y" }
}
