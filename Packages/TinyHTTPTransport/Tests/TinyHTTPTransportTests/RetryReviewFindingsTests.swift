import Foundation
import Testing

@testable import TinyHTTPTransport

/// Bugs of the retry middleware found in review, fixed: each test failed before its fix.
@Suite(.timeLimit(.minutes(1))) struct RetryReviewFindingsTests {
    let clock = RecordingClock()
    let policy = RetryPolicy(maxAttempts: 4, baseDelay: .seconds(1), maxDelay: .seconds(30), jitter: 0, random: { 0.5 })

    /// An error that already says how many times the request was sent (an inner retry middleware gave up after 4
    /// attempts) passes through an outer retry middleware that does not retry it: `attempts` must still say 4, as
    /// ``HTTPTransportError/attempts`` promises ("how many times the request was sent"); the outer one set it to 1.
    /// For a `POST` only the inner one retries; for a `GET` both would, but the inner one's unacceptable-status
    /// error is not retryable for the outer one.
    @Test(arguments: [HTTPMethod.post, .get])
    func anOuterRetryKeepsTheAttemptsOfAnInnerOne(method: HTTPMethod) async throws {
        let sent = Recorder<URLRequest>()
        var withPost = policy
        withPost.retryableMethods.insert(.post)
        let transport = ClosureTransport { request in
            sent.append(request)
            return try reply(request, 503)
        }.with(.retry(policy, clock: clock), .retry(withPost, clock: clock))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: method, url: testURL))
        }

        #expect(sent.all.count == 4)
        #expect(error.code == .unacceptableStatus(503))
        #expect(error.attempts == 4)
    }

    /// A `Retry-After` too large for `Int64` asks for longer than `maxRetryAfter`: the response must be given up at
    /// once, as a `Retry-After: 61` over a 60 s cap is. It was read as no `Retry-After`, and retried after the
    /// backoff.
    @Test func aRetryAfterTooLargeForInt64IsBeyondTheCap() async throws {
        let sent = Recorder<URLRequest>()
        let transport = ClosureTransport { request in
            sent.append(request)
            return try reply(request, sent.all.count == 1 ? 503 : 200, headers: ["Retry-After": "99999999999999999999"])
        }.with(.retry(policy, clock: clock))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 503)
        #expect(sent.all.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    /// A jitter that is not a number counts as none: `.seconds(.nan)` would trap.
    @Test func aJitterThatIsNotANumberCountsAsNone() {
        let policy = RetryPolicy(baseDelay: .seconds(1), jitter: .nan, random: { 0.5 })
        #expect(policy.backoff(afterAttempt: 1) == .seconds(1))
    }
}
