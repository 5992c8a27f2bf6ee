import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyMocks

/// Second pass of the mocks hunt: the order in which a route's answers are given (cancelled and concurrent requests),
/// how `noMock` lists routes, and where `MockError(_:)` finds the error. Each test failed before its fix.
@Suite(.timeLimit(.minutes(1))) struct RouteOrderAndLabelEdgeTests {
    func text(_ body: Data) -> String { String(decoding: body, as: UTF8.self) }

    /// MockTransport.swift `send(_:)` and `nextRouteAnswer`: a request cancelled during its delay gave its answer back,
    /// and the next request took the smallest answer given back, even when a later answer of the route had been
    /// delivered meanwhile. `.status(503), .status(200)` then answered 200 and then 503: the sequence ran backwards,
    /// where the README says a route "gives them in order and then repeats the last".
    @Test func aCancelledRequestBringsNoEarlierAnswerBackAfterALaterOneWasGiven() async throws {
        let clock = BlockingClock(blocking: 1)
        let mock = MockTransport(clock: clock)
        mock.register(.get, "/flaky", delay: .seconds(1), .status(503), .status(200))
        let flaky = try request(.get, "https://h/flaky")
        var started = clock.started.makeAsyncIterator()
        let slow = Task { try await mock.send(flaky) }
        await started.next()  // took the 503, waits out its delay
        let second = try await mock.send(flaky).1.statusCode  // takes the 200, answered at once
        slow.cancel()
        let cancelled = try await #require(throws: HTTPTransportError.self) { try await slow.value }
        #expect(cancelled.code == .cancelled)

        let third = try await mock.send(flaky).1.statusCode
        #expect(second == 200)
        #expect(third == 200)
    }

    /// MockTransport.swift `send(_:)`: a request was recorded under the lock and took its route's answer
    /// under another acquisition, after validating the request and parsing its URL. A request recorded
    /// first could take its answer last: here the first recorded got "second" and the one recorded after it "first",
    /// though `requests` is "in arrival order" and answers are taken "in the order requests arrive". Many headers
    /// only widen the window that concurrent sends hit anyway (3 pairs in 2,000 without them, on two cores).
    @Test func aRouteGivesItsAnswersInTheOrderRequestsAreRecorded() async throws {
        let mock = MockTransport()
        mock.register(.get, "/next", .text("first"), .text("second"))
        var slowToValidate = try request(.get, "https://h/next?early")
        slowToValidate.allHTTPHeaderFields = Dictionary(uniqueKeysWithValues: (0..<50_000).map { ("X-H\($0)", "v") })
        let early = slowToValidate  // a constant: the task captures it
        let earlyTask = Task { try await mock.send(early) }
        while mock.requests.isEmpty { await Task.yield() }  // recorded, now validating
        let (laterBody, _) = try await mock.send(request(.get, "https://h/next?later"))
        let (earlyBody, _) = try await earlyTask.value

        #expect(mock.requests.map { $0.url?.query } == ["early", "later"])
        #expect(text(earlyBody) == "first")
        #expect(text(laterBody) == "second")
    }

    /// MockTransport.swift `path(of:)`: a decoded segment's `/`, `?` and `#` were escaped, but not `%`. A route on
    /// `/files/a%252Fb` (the segment `a%2Fb`) was listed as `GET /files/a%2Fb` in the `noMock` of the request
    /// `GET /files/a%2Fb` (the segment `a/b`), which is shown the same: the message named the request itself as a
    /// registered route it did not match (as `%2F` and `%3F` did before their fixes).
    @Test func theNoMockMessageTellsAnEncodedPercentSignFromAnEscape() async throws {
        let mock = MockTransport()
        mock.register(.get, "/files/a%252Fb", .text("file"))
        #expect(try await mock.send(request(.get, "https://h/files/a%252Fb")).1.statusCode == 200)

        let error = await mockError(mock, try request(.get, "https://h/files/a%2Fb"))
        guard case .noMock(_, let path, _, _, let routes) = error else {
            Issue.record("expected noMock, got \(String(describing: error))")
            return
        }
        #expect(path == "/files/a%2Fb")
        #expect(routes != ["GET \(path)"])
    }

    /// MockTransport.swift `Route.label`: query names and values were joined as they are, decoded. A route for the
    /// value `a&b` (`query: ["q": "a&b"]`) was listed as `GET /search?q=a&b`, exactly the request `GET /search?q=a&b`
    /// (`q=a` and a bare `b`) it did not match, whose URL the error shows beside it.
    @Test func theNoMockMessageTellsAnAmpersandInARouteQueryValueFromASeparator() async throws {
        let mock = MockTransport()
        mock.register(.get, "/search", query: ["q": "a&b"], .text("found"))
        #expect(try await mock.send(request(.get, "https://h/search?q=a%26b")).1.statusCode == 200)

        let sent = try request(.get, "https://h/search?q=a&b")
        let error = try #require(await transportError(mock, sent))
        guard case .noMock(_, _, _, _, let routes) = error.underlyingError as? MockError else {
            Issue.record("expected noMock, got \(error)")
            return
        }
        #expect(error.description.contains("GET https://h/search?q=a&b"))
        #expect(routes != ["GET /search?q=a&b"])
    }

    /// MockError.swift `init?(_:)`: only an `HTTPTransportError`'s or a `TinyAPIError`'s `underlyingError` was looked
    /// into, where the README says `MockError(error)` "digs it out of any wrapping". An error wrapped the Foundation
    /// way (`NSUnderlyingErrorKey`) hid it. TinyRequestState's `RequestError` (a `StatefulEndpoint` failure) still
    /// does, which TinyMocks cannot name: the README says to pass its `underlyingError`.
    @Test func mockErrorFindsItsErrorUnderAFoundationUnderlyingError() async throws {
        let mock = MockTransport()
        let error = try #require(await transportError(mock, request(.get, "https://h/missing")))
        #expect(MockError(error) != nil)

        let wrapped = NSError(domain: "App", code: 1, userInfo: [NSUnderlyingErrorKey: error])
        #expect(MockError(wrapped) != nil)
    }

    /// Pinned: a route registered while another request of its path waits out its delay answers the requests after
    /// it; the waiting request keeps the answer it took when it arrived.
    @Test func aRouteRegisteredWhileARequestWaitsAnswersTheNextOnes() async throws {
        let clock = BlockingClock(blocking: 1)
        let mock = MockTransport(clock: clock)
        mock.register(.get, "/users", delay: .seconds(1), .text("old"))
        let users = try request(.get, "https://h/users")
        var started = clock.started.makeAsyncIterator()
        let waiting = Task { try await mock.send(users) }
        await started.next()
        mock.register(.get, "/users", .text("new"))
        #expect(text(try await mock.send(users).0) == "new")
        waiting.cancel()
        _ = await waiting.result
        #expect(text(try await mock.send(users).0) == "new")
        #expect(mock.routes == ["GET /users", "GET /users"])
    }
}
