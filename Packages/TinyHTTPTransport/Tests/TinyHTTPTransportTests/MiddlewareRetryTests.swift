import Foundation
import Testing
import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct MiddlewareRetryTests {
    let clock = TestClock()
    /// No jitter unless a test asks: waits are exactly the backoff.
    let policy = RetryPolicy(maxAttempts: 4, baseDelay: 1, maxDelay: 30, jitter: 0, random: { 0.5 })

    /// A transport answering the statuses in turn (the last one forever), recording the attempt numbers it saw.
    func answering(_ statuses: [Int], headers: [String: String] = [:], attempts: Recorder<Int>) -> ClosureTransport {
        ClosureTransport { request in
            attempts.append(HTTPMiddleware.attempt)
            let index = min(attempts.all.count, statuses.count) - 1
            return try reply(request, statuses[index], headers: headers, body: "attempt \(attempts.all.count)")
        }
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504], [HTTPMethod.get, .head, .put, .delete, .options, .trace])
    func retriesARetryableStatusUntilItSucceeds(status: Int, method: HTTPMethod) async throws {
        let attempts = Recorder<Int>()
        let transport = answering([status, status, 200], attempts: attempts).with(.retry(policy, clock: clock.clock))

        let (body, response) = try await transport.send(URLRequest(method: method, url: testURL))

        #expect(response.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == "attempt 3")
        #expect(attempts.all == [1, 2, 3])
        #expect(clock.sleeps.all == [1, 2])
    }

    @Test func sendCountingAttemptsReportsTheAttemptsOfTheRetryMiddleware() async throws {
        let attempts = Recorder<Int>()
        let retrying = answering([503], attempts: attempts).with(.retry(policy, clock: clock.clock))
        let (_, response, count) = try await retrying.sendCountingAttempts(URLRequest(method: .get, url: testURL))
        #expect(response.statusCode == 503)
        #expect(count == 4)

        let (_, _, once) = try await answering([200], attempts: Recorder<Int>())
            .sendCountingAttempts(URLRequest(method: .get, url: testURL))
        #expect(once == 1)
    }

    @Test func aPersistentStatusReturnsTheLastResponseAfterMaxAttempts() async throws {
        let attempts = Recorder<Int>()
        let transport = answering([503], attempts: attempts).with(.retry(policy, clock: clock.clock))

        let (body, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 503)
        #expect(String(decoding: body, as: UTF8.self) == "attempt 4")
        #expect(attempts.all.count == 4)
        #expect(clock.sleeps.all == [1, 2, 4])
    }

    @Test func backoffIsExponentialCappedAndJittered() {
        let policy = RetryPolicy(baseDelay: 0.5, maxDelay: 3, jitter: 0.5, random: { 0.5 })
        #expect((1...5).map(policy.backoff(afterAttempt:)) == [0.375, 0.75, 1.5, 2.25, 2.25])
        let noJitter = RetryPolicy(baseDelay: 0.5, maxDelay: 3, jitter: 0.5, random: { 0 })
        #expect((1...5).map(noJitter.backoff(afterAttempt:)) == [0.5, 1, 2, 3, 3])
        let fullJitter = RetryPolicy(baseDelay: 1, jitter: 1, random: { 0.25 })
        #expect(fullJitter.backoff(afterAttempt: 3) == 3)
    }

    @Test func theWaitsUseTheJitteredBackoff() async throws {
        let attempts = Recorder<Int>()
        let jittered = RetryPolicy(maxAttempts: 3, baseDelay: 2, jitter: 0.5, random: { 0.5 })
        let transport = answering([500], attempts: attempts).with(.retry(jittered, clock: clock.clock))

        _ = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(clock.sleeps.all == [1.5, 3])
    }

    @Test func retryAfterInSecondsReplacesTheBackoff() async throws {
        let attempts = Recorder<Int>()
        let transport = answering([429, 200], headers: ["Retry-After": "7"], attempts: attempts)
            .with(.retry(policy, clock: clock.clock))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 200)
        #expect(clock.sleeps.all == [7])
    }

    @Test func retryAfterAsAnHTTPDateCountsFromTheResponseDate() async throws {
        let attempts = Recorder<Int>()
        let headers = ["Retry-After": "Sun, 06 Nov 1994 08:49:52 GMT", "Date": "Sun, 06 Nov 1994 08:49:37 GMT"]
        let transport = answering([503, 200], headers: headers, attempts: attempts)
            .with(.retry(policy, clock: clock.clock))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 200)
        #expect(clock.sleeps.all == [15])
    }

    @Test func retryAfterParsing() throws {
        func retryAfter(_ value: String, date: String? = nil) throws -> Double? {
            var headers = ["Retry-After": value]
            headers["Date"] = date
            return RetryPolicy.retryAfter(
                of: try reply(nil, 503, headers: headers).1, now: Date(timeIntervalSince1970: 0))
        }
        #expect(try retryAfter("120") == 120)
        #expect(try retryAfter(" 3 ") == 3)
        #expect(try retryAfter("-3") == nil)
        #expect(try retryAfter("soon") == nil)
        #expect(try retryAfter("Thu, 01 Jan 1970 00:01:00 GMT") == 60)
        #expect(try retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", date: "Sun, 06 Nov 1994 08:50:37 GMT") == 0)
    }

    @Test func aRetryAfterBeyondTheCapReturnsTheResponseAtOnce() async throws {
        let attempts = Recorder<Int>()
        var capped = policy
        capped.maxRetryAfter = 60
        let transport = answering([503, 200], headers: ["Retry-After": "61"], attempts: attempts)
            .with(.retry(capped, clock: clock.clock))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 503)
        #expect(attempts.all.count == 1)
        #expect(clock.sleeps.all.isEmpty)
    }

    @Test(arguments: [HTTPMethod.post, .patch, "CONNECT"])
    func nonIdempotentMethodsAreNotRetried(method: HTTPMethod) async throws {
        let attempts = Recorder<Int>()
        let transport = answering([503, 200], attempts: attempts).with(.retry(policy, clock: clock.clock))

        let (_, response) = try await transport.send(URLRequest(method: method, url: testURL))

        #expect(response.statusCode == 503)
        #expect(attempts.all.count == 1)
    }

    @Test func aPolicyCanOptInToRetryingPost() async throws {
        let attempts = Recorder<Int>()
        var withPost = policy
        withPost.retryableMethods.insert(.post)
        let transport = answering([503, 201], attempts: attempts).with(.retry(withPost, clock: clock.clock))

        let (_, response) = try await transport.send(URLRequest(method: .post, url: testURL))

        #expect(response.statusCode == 201)
    }

    @Test(arguments: [400, 401, 404, 409, 501])
    func otherStatusesAreNotRetried(status: Int) async throws {
        let attempts = Recorder<Int>()
        let transport = answering([status, 200], attempts: attempts).with(.retry(policy, clock: clock.clock))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == status)
        #expect(attempts.all.count == 1)
    }

    @Test(arguments: [URLError.Code.networkConnectionLost, .timedOut, .cannotConnectToHost])
    func retryableFailuresAreRetried(code: URLError.Code) async throws {
        let attempts = Recorder<Int>()
        let transport = ClosureTransport { request in
            attempts.append(HTTPMiddleware.attempt)
            guard attempts.all.count > 1 else { throw HTTPTransportError(mapping: URLError(code), request: request) }
            return try reply(request, 200)
        }.with(.retry(policy, clock: clock.clock))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 200)
        #expect(attempts.all == [1, 2])
    }

    @Test func aPersistentFailureSaysHowManyAttemptsWereMade() async throws {
        let transport = ClosureTransport { request in
            throw HTTPTransportError(mapping: URLError(.timedOut), request: request)
        }.with(.retry(policy, clock: clock.clock))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect(error.code == .timedOut)
        #expect(error.attempts == 4)
        #expect(error.description.contains("after 4 attempts"))
        #expect(clock.sleeps.all == [1, 2, 4])
    }

    @Test func aRawURLErrorIsRetriedAndReportedWithTheAttempts() async throws {
        let attempts = Recorder<Int>()
        let transport = ClosureTransport { _ in
            attempts.append(HTTPMiddleware.attempt)
            throw URLError(.networkConnectionLost)
        }.with(.retry(policy, clock: clock.clock))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect(error.code == .cannotConnect)
        #expect(error.attempts == 4)
        #expect((error.underlyingError as? URLError)?.code == .networkConnectionLost)
        #expect(attempts.all == [1, 2, 3, 4])
    }

    @Test func decodingFailuresPassThroughUnretried() async throws {
        let attempts = Recorder<Int>()
        let transport = ClosureTransport { _ in
            attempts.append(1)
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not JSON"))
        }.with(.retry(policy, clock: clock.clock))

        await #expect(throws: DecodingError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }
        #expect(attempts.all.count == 1)
    }

    @Test(arguments: [HTTPTransportError.Code.cancelled, .invalidRequest, .other])
    func otherFailuresAreNotRetried(code: HTTPTransportError.Code) async throws {
        let attempts = Recorder<Int>()
        let transport = ClosureTransport { request in
            attempts.append(1)
            throw HTTPTransportError(code, request: request)
        }.with(.retry(policy, clock: clock.clock))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }
        #expect(error.code == code)
        #expect(error.attempts == 1)
        #expect(attempts.all.count == 1)
    }

    @Test func cancellingDuringABackoffWaitEndsPromptlyWithCancelled() async throws {
        let attempts = Recorder<Int>()
        let (waiting, waitingStarted) = AsyncStream.makeStream(of: Void.self)
        // Waits for as long as asked (an hour here), unless cancelled: the test cancels it as soon as it started.
        let hourLongWait = MiddlewareClock(
            now: { 0 },
            sleep: { _ in
                waitingStarted.yield()
                try await Task.sleep(nanoseconds: 3_600_000_000_000)
            })
        let transport = answering([503], attempts: attempts)
            .with(.retry(RetryPolicy(baseDelay: 3600, jitter: 0), clock: hourLongWait))

        let task = Task { try await transport.send(URLRequest(method: .get, url: testURL)) }
        for await _ in waiting { break }
        task.cancel()

        let error = try await #require(throws: HTTPTransportError.self) { try await task.value }
        #expect(error.code == .cancelled)
        #expect(error.attempts == 1)
        #expect(attempts.all.count == 1)
    }

    @Test func maxAttemptsOfOneNeverRetries() async throws {
        let attempts = Recorder<Int>()
        let transport = answering([503, 200], attempts: attempts)
            .with(.retry(RetryPolicy(maxAttempts: 1), clock: clock.clock))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 503)
        #expect(attempts.all.count == 1)
    }
}
