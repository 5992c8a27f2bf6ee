import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyMocks

/// Review of the late mocks fixes (e00e6b6): each test failed before its fix.
@Suite(.timeLimit(.minutes(1))) struct LateFixReviewTests {
    /// MockTransport.swift `send` and `nextRouteAnswer`. e00e6b6 dropped the answers given back before a later one
    /// only when that later one was *delivered*. An answer given back while the later one still waited was taken at
    /// once by the next request, which then waited its own delay and was delivered after the later answer:
    /// `.status(503), .status(200)` answered 200, then 503. The sequence ran backwards, which the commit said could
    /// no longer happen ("an answer given back before a later one was delivered is never served after it"). An
    /// answer given back is now spent once a later answer of its route is waited for or delivered.
    @Test func anAnswerGivenBackAndTakenAgainIsNotDeliveredAfterALaterOne() async throws {
        let (clock, mock, request, sleeps, second) = try await answerGivenBackWhileALaterOneWaits(releasedFrom: 4)
        var started = sleeps
        let third = Task { try await mock.send(request).1.statusCode }  // takes the 200
        #expect(await started.next() == 3)
        clock.release(2)
        let delivered = try await second.value  // the 200 is delivered…
        clock.release(3)
        let after = try await third.value  // …and the third request, answered after it, gets the 200

        #expect(delivered == 200)
        #expect(after == 200)
    }

    /// MockTransport.swift `nextRouteAnswer`. When every request that took an answer was cancelled, none was used
    /// up, so the next request gets the route's first answer ("a cancelled request uses up no answer of its route").
    /// Before, the answers given back were kept in a list and the first one, spent when the second was taken, was
    /// never served: the next request got the second.
    @Test func afterEveryTakerWasCancelledTheNextRequestGetsTheFirstAnswer() async throws {
        let clock = NumberedGateClock(releasedFrom: 4)
        let mock = MockTransport(clock: clock)
        mock.register(.get, "/seq", delay: .seconds(1), .status(201), .status(202), .status(203))
        let request = URLRequest(url: try #require(URL(string: "https://h/seq")))
        var started = clock.started.makeAsyncIterator()
        let first = Task { try await mock.send(request) }  // takes the 201
        #expect(await started.next() == 1)
        let second = Task { try await mock.send(request) }  // takes the 202
        #expect(await started.next() == 2)
        first.cancel()  // gives the 201 back while the 202 waits: spent
        _ = await first.result
        let third = Task { try await mock.send(request) }  // takes the 203
        #expect(await started.next() == 3)
        second.cancel()
        third.cancel()
        _ = (await second.result, await third.result)

        let status = try await mock.send(request).1.statusCode  // its sleep, the 4th, returns at once
        #expect(status == 201)
    }

    /// MockTransport.swift `shown(_:escaping:)`. Text that does not percent-decode was taken for text kept as
    /// written (`%E9`) and shown with *nothing* escaped, its `&`, `=`, `#` included. But a decoded value with a
    /// literal `%` not followed by two hex digits (`100%`) does not decode either, so its `&` and `=` were no longer
    /// escaped (they were before e00e6b6): the route for the one value `100%&x=1` was listed exactly as the route for
    /// the two items `q=100%` and `x=1`, the confusion the escaping exists to prevent. Such text now has its
    /// `characters` escaped and keeps only its `%`.
    @Test func aRouteQueryValueWithALiteralPercentReadsAsNoOtherRoute() {
        let mock = MockTransport()
        mock.register(.get, "/search", query: ["q": "100%&x=1"], .text("one item"))
        mock.register(.get, "/search", query: ["q": "100%", "x": "1"], .text("two items"))
        let routes = mock.routes
        #expect(routes[0] != routes[1], "routes: \(routes)")
    }

    /// MockTransport.swift `path(of:)` through the same guard: the segment `100%/x` (registered as `100%25%2Fx`)
    /// does not decode, so its `/` was no longer written `%2F` (it was before e00e6b6): the route read as the two
    /// segments `100%` and `x`, exactly as the route `/files/100%25/x` does, in `routes` and in a `noMock` message.
    @Test func aRoutePathSegmentWithALiteralPercentAndSlashReadsAsNoOtherRoute() {
        let mock = MockTransport()
        mock.register(.get, "/files/100%25%2Fx", .text("one segment"))
        mock.register(.get, "/files/100%25/x", .text("two segments"))
        let routes = mock.routes
        #expect(routes[0] != routes[1], "routes: \(routes)")
    }
}
