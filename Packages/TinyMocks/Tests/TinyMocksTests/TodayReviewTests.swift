import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyMocks

/// Review of e0a04be and 620cbc7: behaviour those commits broke, regression tests now.
@Suite(.timeLimit(.minutes(1))) struct TodayReviewTests {
    /// A clock whose first sleep lasts until ``open()`` (after yielding to ``started``); later sleeps return at once.
    final class GateClock: Clock, Sendable {
        typealias Instant = RecordingClock.Instant
        private let state = Locked((sleeps: 0, open: false))
        private let continuation: AsyncStream<Void>.Continuation
        /// One element when the first sleep starts.
        let started: AsyncStream<Void>

        init() { (started, continuation) = AsyncStream.makeStream(of: Void.self) }

        var now: Instant { Instant(offset: .zero) }
        var minimumResolution: Duration { .zero }

        /// Ends the first sleep.
        func open() { state.withLock { $0.open = true } }

        func sleep(until deadline: Instant, tolerance: Duration?) async throws {
            let first = state.withLock { state in
                state.sleeps += 1
                return state.sleeps == 1
            }
            guard first else { return }
            continuation.yield()
            while !state.withLock({ $0.open }) { try await Task.sleep(for: .milliseconds(1)) }
        }
    }

    /// `MockTransport.swift` `register`: route paths that `URLComponents(string:)` misreads match as written, and a
    /// query written in one matches the same request: `//users/42` (read as host `users`; the doc says empty
    /// segments do not matter), `users:search` (read as scheme `users`: Google-style custom methods) and `?flag`
    /// (stored as `flag = ""`, while a request's `?flag` has the value `nil`).
    @Test(arguments: [
        (HTTPMethod.get, "//users/42", "/users/42"), (.post, "users:search", "/users:search"),
        (.get, "/search?flag", "/search?flag"),
    ])
    func aRoutePathMatchesAsWritten(method: HTTPMethod, route: String, path: String) async throws {
        let mock = MockTransport()
        mock.register(method, route, .status(204))
        let status = try await mock.send(request(method, "https://h" + path)).1.statusCode
        #expect(status == 204)
    }

    /// `MockTransport.swift` `send`: the route's answer is now taken after the delay, so concurrent calls get a
    /// route's answers in the order their delays end, not in the order they arrived (and were recorded). With equal
    /// delays on a real clock that order is a race: `.status(503), .status(200)` becomes flaky.
    @Test func concurrentCallsOfARouteGetItsAnswersInArrivalOrder() async throws {
        let clock = GateClock()
        let mock = MockTransport(delay: .seconds(1), clock: clock)
        mock.register(.get, "/flaky", .status(503), .status(200))
        let flaky = try request(.get, "https://h/flaky")
        let first = Task { try await mock.send(flaky).1.statusCode }
        var started = clock.started.makeAsyncIterator()
        await started.next()  // the first request is waiting out its delay
        let second = try await mock.send(flaky).1.statusCode
        clock.open()
        let firstStatus = try await first.value
        #expect(mock.requests.count == 2)
        #expect(firstStatus == 503)
        #expect(second == 200)
    }
}
