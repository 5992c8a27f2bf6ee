import Foundation
import Testing

@testable import TinyHTTPTransport

@Suite(.timeLimit(.minutes(1))) struct MiddlewareRetryTests {
    let clock = RecordingClock()
    /// No jitter unless a test asks: waits are exactly the backoff.
    let policy = RetryPolicy(maxAttempts: 4, baseDelay: .seconds(1), maxDelay: .seconds(30), jitter: 0, random: { 0.5 })

    /// A transport answering the statuses in turn (the last one forever), recording each request it is sent; the body
    /// says which send it answers (`attempt 1`, …).
    func answering(_ statuses: [Int], headers: [String: String] = [:], sent: Recorder<URLRequest>) -> ClosureTransport {
        ClosureTransport { request in
            sent.append(request)
            let count = sent.all.count
            return try reply(
                request, statuses[min(count, statuses.count) - 1], headers: headers, body: "attempt \(count)")
        }
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504], [HTTPMethod.get, .head, .put, .delete, "OPTIONS", "TRACE"])
    func retriesARetryableStatusUntilItSucceeds(status: Int, method: HTTPMethod) async throws {
        let sent = Recorder<URLRequest>()
        let transport = answering([status, status, 200], sent: sent).with(.retry(policy, clock: clock))
        let request = URLRequest(method: method, url: testURL)

        let (body, response) = try await transport.send(request)

        #expect(response.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == "attempt 3")
        #expect(sent.all == [request, request, request])
        #expect(clock.sleeps == [.seconds(1), .seconds(2)])
    }

    /// The attempts travel in the error the retry middleware throws, not on the side: a persisting status says how
    /// many sends it took, and a response on the first attempt is just the response.
    @Test func theAttemptsOfTheRetryMiddlewareTravelInTheThrownError() async throws {
        let retrying = answering([503], sent: Recorder<URLRequest>()).with(.retry(policy, clock: clock))
        let error = try await #require(throws: HTTPTransportError.self) {
            try await retrying.send(URLRequest(method: .get, url: testURL))
        }
        #expect(error.attempts == 4)

        let once = Recorder<URLRequest>()
        let (_, response) = try await answering([200], sent: once).with(.retry(policy, clock: clock))
            .send(URLRequest(method: .get, url: testURL))
        #expect(response.statusCode == 200)
        #expect(once.all.count == 1)
    }

    @Test(arguments: [500, 503])
    func aPersistentStatusThrowsUnacceptableStatusWithTheAttemptsAfterMaxAttempts(status: Int) async throws {
        let sent = Recorder<URLRequest>()
        let transport = answering([status], headers: ["X-Busy": "yes"], sent: sent).with(.retry(policy, clock: clock))
        let request = URLRequest(method: .get, url: testURL)

        let error = try await #require(throws: HTTPTransportError.self) { try await transport.send(request) }

        #expect(error.code == .unacceptableStatus(status))
        #expect(error.attempts == 4)
        #expect(error.response?.statusCode == status)
        #expect(error.response?.value(forHTTPHeaderField: "X-Busy") == "yes")
        #expect(error.body == Data("attempt 4".utf8))
        #expect(error.request == request)
        #expect(error.underlyingError == nil)
        #expect(error.description.contains("unacceptable status \(status)"))
        #expect(error.description.contains("after 4 attempts"))
        #expect(sent.all.count == 4)
        #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4)])
    }

    /// Not retried, a retryable status is no failure of the middleware: the very response comes back.
    @Test(arguments: [(HTTPMethod.get, 1), (.post, 4), (.post, 1)])
    func aResponseThatIsNotRetriedIsReturnedUnchanged(method: HTTPMethod, maxAttempts: Int) async throws {
        let sent = Recorder<URLRequest>()
        let (cannedBody, cannedResponse) = try reply(nil, 503, headers: ["Retry-After": "1"], body: "busy")
        var once = policy
        once.maxAttempts = maxAttempts
        let transport = ClosureTransport { request in
            sent.append(request)
            return (cannedBody, cannedResponse)
        }.with(.retry(once, clock: clock))

        let (body, response) = try await transport.send(URLRequest(method: method, url: testURL))

        #expect(response === cannedResponse)
        #expect(body == cannedBody)
        #expect(sent.all.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func backoffIsExponentialCappedAndJittered() {
        let policy = RetryPolicy(baseDelay: .milliseconds(500), maxDelay: .seconds(3), jitter: 0.5, random: { 0.5 })
        #expect(
            (1...5).map(policy.backoff(afterAttempt:)) == [
                .milliseconds(375), .milliseconds(750), .milliseconds(1500), .milliseconds(2250), .milliseconds(2250),
            ])
        let noJitter = RetryPolicy(baseDelay: .milliseconds(500), maxDelay: .seconds(3), jitter: 0.5, random: { 0 })
        #expect(
            (1...5).map(noJitter.backoff(afterAttempt:)) == [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(3), .seconds(3),
            ])
        let fullJitter = RetryPolicy(baseDelay: .seconds(1), jitter: 1, random: { 0.25 })
        #expect(fullJitter.backoff(afterAttempt: 3) == .seconds(3))
    }

    @Test func backoffKeepsDoublingUntilMaxDelay() {
        let policy = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(100), jitter: 0)
        #expect(
            (5...8).map(policy.backoff(afterAttempt:)) == [.seconds(16), .seconds(32), .seconds(64), .seconds(100)])
        #expect(policy.backoff(afterAttempt: 10_000) == .seconds(100))
    }

    @Test func theDefaultsAreHalfASecondThirtySecondsAndAMinute() {
        let defaults = RetryPolicy()
        #expect(defaults.baseDelay == .milliseconds(500))
        #expect(defaults.maxDelay == .seconds(30))
        #expect(defaults.maxRetryAfter == .seconds(60))
    }

    @Test func theDefaultsAreThreeAttemptsOfTheIdempotentMethodsAfterTheUsualStatusesWithHalfJitter() {
        let defaults = RetryPolicy()
        #expect(defaults.maxAttempts == 3)
        #expect(defaults.jitter == 0.5)
        #expect(defaults.retryableMethods == [.get, .head, .put, .delete, "OPTIONS", "TRACE"])
        #expect(defaults.retryableStatuses == [408, 429, 500, 502, 503, 504])
    }

    /// A jitter above 1 counts as 1: a wait is never negative.
    @Test func jitterAboveOneCountsAsOne() {
        let policy = RetryPolicy(baseDelay: .seconds(1), jitter: 3, random: { 0.5 })
        #expect(policy.backoff(afterAttempt: 1) == .milliseconds(500))
    }

    @Test func theWaitsUseTheJitteredBackoff() async throws {
        let jittered = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(2), jitter: 0.5, random: { 0.5 })
        let transport = answering([500], sent: Recorder<URLRequest>()).with(.retry(jittered, clock: clock))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect(error.attempts == 3)
        #expect(clock.sleeps == [.milliseconds(1500), .seconds(3)])
    }

    @Test func retryAfterInSecondsReplacesTheBackoff() async throws {
        let transport = answering([429, 200], headers: ["Retry-After": "7"], sent: Recorder<URLRequest>())
            .with(.retry(policy, clock: clock))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 200)
        #expect(clock.sleeps == [.seconds(7)])
    }

    @Test func aRetryAfterOfZeroRetriesAtOnce() async throws {
        let transport = answering([503, 200], headers: ["Retry-After": "0"], sent: Recorder<URLRequest>())
            .with(.retry(policy, clock: clock))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 200)
        #expect(clock.sleeps == [.zero])
    }

    /// `maxRetryAfter` is the longest `Retry-After` honoured: a response asking for exactly that long is retried.
    @Test func aRetryAfterOfExactlyTheCapIsHonoured() async throws {
        var capped = policy
        capped.maxRetryAfter = .seconds(60)
        let transport = answering([503, 200], headers: ["Retry-After": "60"], sent: Recorder<URLRequest>())
            .with(.retry(capped, clock: clock))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 200)
        #expect(clock.sleeps == [.seconds(60)])
    }

    @Test func retryAfterAsAnHTTPDateCountsFromTheResponseDate() async throws {
        let headers = ["Retry-After": "Sun, 06 Nov 1994 08:49:52 GMT", "Date": "Sun, 06 Nov 1994 08:49:37 GMT"]
        let transport = answering([503, 200], headers: headers, sent: Recorder<URLRequest>())
            .with(.retry(policy, clock: clock))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 200)
        #expect(clock.sleeps == [.seconds(15)])
    }

    @Test func retryAfterParsing() throws {
        func retryAfter(_ value: String, date: String? = nil) throws -> Duration? {
            var headers = ["Retry-After": value]
            headers["Date"] = date
            return RetryPolicy.retryAfter(
                of: try reply(nil, 503, headers: headers).1, now: Date(timeIntervalSince1970: 0))
        }
        #expect(try retryAfter("120") == .seconds(120))
        #expect(try retryAfter(" 3 ") == .seconds(3))
        #expect(try retryAfter("-3") == nil)
        #expect(try retryAfter("soon") == nil)
        #expect(try retryAfter("Thu, 01 Jan 1970 00:01:00 GMT") == .seconds(60))
        #expect(try retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", date: "Sun, 06 Nov 1994 08:50:37 GMT") == .zero)
    }

    @Test func aRetryAfterBeyondTheCapReturnsTheResponseAtOnce() async throws {
        let sent = Recorder<URLRequest>()
        var capped = policy
        capped.maxRetryAfter = .seconds(60)
        let transport = answering([503, 200], headers: ["Retry-After": "61"], sent: sent)
            .with(.retry(capped, clock: clock))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 503)
        #expect(sent.all.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    /// After a retry, a `Retry-After` longer than the cap ends the retries: the status persisted, so it throws.
    @Test func aRetryAfterBeyondTheCapAfterARetryThrowsWithTheAttempts() async throws {
        let sent = Recorder<URLRequest>()
        let transport = ClosureTransport { request in
            sent.append(request)
            let wait = sent.all.count == 1 ? "1" : "3600"
            return try reply(request, 503, headers: ["Retry-After": wait], body: "busy \(sent.all.count)")
        }.with(.retry(policy, clock: clock))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect(error.code == .unacceptableStatus(503))
        #expect(error.attempts == 2)
        #expect(error.body == Data("busy 2".utf8))
        #expect(sent.all.count == 2)
        #expect(clock.sleeps == [.seconds(1)])
    }

    @Test(arguments: [HTTPMethod.post, .patch, "CONNECT"])
    func nonIdempotentMethodsAreNotRetried(method: HTTPMethod) async throws {
        let sent = Recorder<URLRequest>()
        let transport = answering([503, 200], sent: sent).with(.retry(policy, clock: clock))

        let (_, response) = try await transport.send(URLRequest(method: method, url: testURL))

        #expect(response.statusCode == 503)
        #expect(sent.all.count == 1)
    }

    @Test func aPolicyCanOptInToRetryingPost() async throws {
        let sent = Recorder<URLRequest>()
        var withPost = policy
        withPost.retryableMethods.insert(.post)
        let transport = answering([503, 201], sent: sent).with(.retry(withPost, clock: clock))

        let (_, response) = try await transport.send(URLRequest(method: .post, url: testURL))

        #expect(response.statusCode == 201)
        #expect(sent.all.count == 2)
    }

    @Test(arguments: [400, 401, 404, 409, 501])
    func otherStatusesAreNotRetried(status: Int) async throws {
        let sent = Recorder<URLRequest>()
        let transport = answering([status, 200], sent: sent).with(.retry(policy, clock: clock))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == status)
        #expect(sent.all.count == 1)
    }

    @Test(arguments: [
        URLError.Code.networkConnectionLost, .timedOut, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
        .notConnectedToInternet, .badServerResponse, .secureConnectionFailed,
    ])
    func retryableFailuresAreRetried(code: URLError.Code) async throws {
        let sent = Recorder<URLRequest>()
        let transport = ClosureTransport { request in
            sent.append(request)
            guard sent.all.count > 1 else { throw HTTPTransportError(mapping: URLError(code), request: request) }
            return try reply(request, 200)
        }.with(.retry(policy, clock: clock))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 200)
        #expect(sent.all.count == 2)
        #expect(clock.sleeps == [.seconds(1)])
    }

    @Test func theDefaultRetryableErrorCodesAreTheMappedSixAndTwoMore() {
        #expect(
            RetryPolicy().retryableErrorCodes == [
                .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .networkConnectionLost,
                .notConnectedToInternet, .timedOut, .badServerResponse, .secureConnectionFailed,
            ])
    }

    @Test(arguments: [
        (URLError.Code.networkConnectionLost, [URLError.Code.timedOut], 1),
        (.timedOut, [.timedOut], 4),
        (.cannotParseResponse, [.cannotParseResponse], 4),
        (.badServerResponse, [], 1),
        (.cancelled, [.cancelled], 1),
        (.badURL, [.badURL], 1),
    ])
    func theRetryableErrorCodesCanBeSet(code: URLError.Code, retryable: [URLError.Code], sends: Int) async throws {
        let sent = Recorder<URLRequest>()
        var chosen = policy
        chosen.retryableErrorCodes = Set(retryable)
        let transport = ClosureTransport { request in
            sent.append(request)
            throw HTTPTransportError(mapping: URLError(code), request: request)
        }.with(.retry(chosen, clock: clock))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect((error.underlyingError as? URLError)?.code == code)
        #expect(error.attempts == sends)
        #expect(sent.all.count == sends)
    }

    /// AsyncHTTPClient's failures carry no `URLError`: their code decides, as before the codes could be set.
    @Test(arguments: [HTTPTransportError.Code.cannotConnect, .timedOut])
    func aFailureWithoutAURLErrorIsRetriedByItsCode(code: HTTPTransportError.Code) async throws {
        struct ChannelError: Error {}
        let sent = Recorder<URLRequest>()
        let transport = ClosureTransport { request in
            sent.append(request)
            throw HTTPTransportError(code, request: request, underlyingError: ChannelError())
        }.with(.retry(policy, clock: clock))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect(error.code == code)
        #expect(error.attempts == 4)
        #expect(sent.all.count == 4)
    }

    @Test func aPersistentFailureSaysHowManyAttemptsWereMade() async throws {
        let transport = ClosureTransport { request in
            throw HTTPTransportError(mapping: URLError(.timedOut), request: request)
        }.with(.retry(policy, clock: clock))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect(error.code == .timedOut)
        #expect(error.attempts == 4)
        #expect(error.description.contains("after 4 attempts"))
        #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4)])
    }

    @Test func aRawURLErrorIsRetriedAndReportedWithTheAttempts() async throws {
        let sent = Recorder<URLRequest>()
        let transport = ClosureTransport { request in
            sent.append(request)
            throw URLError(.networkConnectionLost)
        }.with(.retry(policy, clock: clock))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect(error.code == .cannotConnect)
        #expect(error.attempts == 4)
        #expect((error.underlyingError as? URLError)?.code == .networkConnectionLost)
        #expect(sent.all.count == 4)
    }

    @Test func decodingFailuresPassThroughUnretried() async throws {
        let sent = Recorder<URLRequest>()
        let transport = ClosureTransport { request in
            sent.append(request)
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not JSON"))
        }.with(.retry(policy, clock: clock))

        await #expect(throws: DecodingError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }
        #expect(sent.all.count == 1)
    }

    @Test(arguments: [HTTPTransportError.Code.cancelled, .invalidRequest, .other])
    func otherFailuresAreNotRetried(code: HTTPTransportError.Code) async throws {
        let sent = Recorder<URLRequest>()
        let transport = ClosureTransport { request in
            sent.append(request)
            throw HTTPTransportError(code, request: request)
        }.with(.retry(policy, clock: clock))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }
        #expect(error.code == code)
        #expect(error.attempts == 1)
        #expect(sent.all.count == 1)
    }

    /// A failure that arrives once the awaiting task is cancelled is not retried: it is thrown as it is, without a wait.
    @Test func aFailureOfACancelledTaskIsNotRetried() async throws {
        let sent = Recorder<URLRequest>()
        let transport = ClosureTransport { request in
            sent.append(request)
            withUnsafeCurrentTask { $0?.cancel() }  // the task awaiting the send is cancelled as the failure arrives
            throw HTTPTransportError(mapping: URLError(.timedOut), request: request)
        }.with(.retry(policy, clock: clock))

        let task = Task { try await transport.send(URLRequest(method: .get, url: testURL)) }
        let error = try await #require(throws: HTTPTransportError.self) { try await task.value }

        #expect(error.code == .timedOut)
        #expect(error.attempts == 1)
        #expect(sent.all.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func cancellingDuringABackoffWaitEndsPromptlyWithCancelled() async throws {
        let sent = Recorder<URLRequest>()
        // Waits until cancelled (the wait asked for is an hour): the test cancels it as soon as it started.
        let hourLongWait = RecordingClock(sleepsUntilCancelled: true)
        let transport = answering([503], sent: sent)
            .with(
                .retry(RetryPolicy(baseDelay: .seconds(3600), maxDelay: .seconds(3600), jitter: 0), clock: hourLongWait)
            )

        let task = Task { try await transport.send(URLRequest(method: .get, url: testURL)) }
        for await _ in hourLongWait.started { break }
        task.cancel()

        let error = try await #require(throws: HTTPTransportError.self) { try await task.value }
        #expect(error.code == .cancelled)
        #expect(error.attempts == 1)
        #expect(sent.all.count == 1)
        #expect(hourLongWait.sleeps == [.seconds(3600)])
    }

    @Test func maxAttemptsOfOneNeverRetries() async throws {
        let sent = Recorder<URLRequest>()
        let transport = answering([503, 200], sent: sent)
            .with(.retry(RetryPolicy(maxAttempts: 1), clock: clock))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 503)
        #expect(sent.all.count == 1)
    }
}
