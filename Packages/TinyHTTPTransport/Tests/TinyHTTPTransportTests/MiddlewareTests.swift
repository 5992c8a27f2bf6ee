import Foundation
import Testing
import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct MiddlewareTests {
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
        #expect(transport.middleware.count == 3)
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
        }.with(.retry(RetryPolicy(jitter: 0), clock: TestClock().clock), .authorization(StaticCredential()))

        _ = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(seen.all == ["Bearer x", "Bearer x"])
    }

    @Test func defaultHeadersDoNotOverrideTheRequestsOwn() async throws {
        let seen = Recorder<[String: String]>()
        let transport = ClosureTransport { request in
            seen.append(request.allHTTPHeaderFields ?? [:])
            return try reply(request, 200)
        }.with(.defaultHeaders(["Accept": "application/json", "X-Client": "tiny"]), .userAgent("Tiny/1.0"))
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
        }.with(.userAgent("Tiny/2.0", overriding: true))
        var request = URLRequest(method: .get, url: testURL)
        request.setValue("Other/1.0", forHTTPHeaderField: "User-Agent")

        _ = try await transport.send(request)

        #expect(seen.all == ["Tiny/2.0"])
    }

    @Test func metricsReportStartFinishDurationBytesAndAttempts() async throws {
        let clock = TestClock()
        for time in [10.0, 10.25, 20, 20.5] { clock.times.append(time) }
        let started = Recorder<Int>()
        let finished = Recorder<HTTPExchangeMetrics>()
        let transport = ClosureTransport { request in
            try reply(request, started.all.count == 1 ? 503 : 200, body: "12345")
        }.with(
            .retry(RetryPolicy(jitter: 0), clock: clock.clock),
            .metrics(clock: clock.clock, started: { _, attempt in started.append(attempt) }) { finished.append($0) })
        var request = URLRequest(method: .put, url: testURL)
        request.httpBody = Data("abc".utf8)

        _ = try await transport.send(request)

        #expect(started.all == [1, 2])
        let metrics = finished.all
        #expect(metrics.map(\.attempt) == [1, 2])
        #expect(metrics.map(\.statusCode) == [503, 200])
        #expect(metrics.map(\.duration) == [0.25, 0.5])
        #expect(metrics.map(\.requestBytes) == [3, 3])
        #expect(metrics.map(\.responseBytes) == [5, 5])
        #expect(metrics.allSatisfy { $0.error == nil })
    }

    @Test func metricsReportFailures() async throws {
        let finished = Recorder<HTTPExchangeMetrics>()
        let transport = ClosureTransport { request in
            throw HTTPTransportError(.cannotConnect, request: request)
        }.with(.metrics(clock: TestClock().clock) { finished.append($0) })

        await #expect(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        let metrics = try #require(finished.all.first)
        #expect(metrics.response == nil)
        #expect((metrics.error as? HTTPTransportError)?.code == .cannotConnect)
        #expect(metrics.responseBytes == 0)
    }
}

private struct StaticCredential: CredentialProvider {
    func credential() async throws -> String? { "Bearer x" }
    func refreshCredential(rejected: String?) async throws -> String { "Bearer y" }
}
