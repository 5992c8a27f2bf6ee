import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyMocks

/// Review findings: each test showed a behaviour that contradicted the documentation or `URLSessionTransport` (a
/// known issue until it was fixed).
@Suite(.timeLimit(.minutes(1))) struct ReviewBugTests {
    /// `MockTransport.swift` `send(_:)`: the route's answer is taken (`nextRouteAnswer`) before the delay, so a
    /// request cancelled while it waits uses one up, although a request of an already cancelled task does not
    /// (`RouteTests.aRequestOfACancelledTaskUsesUpNoAnswer`) and the cancelled caller never saw it.
    @Test func aRequestCancelledDuringItsDelayUsesUpNoAnswer() async throws {
        let clock = BlockingClock(blocking: 1)
        let mock = MockTransport(clock: clock)
        mock.register(.get, "/next", delay: .seconds(1), .text("first"), .text("second"))
        let next = try request(.get, "https://h/next")
        let cancelled = Task { try await mock.send(next) }
        var started = clock.started.makeAsyncIterator()
        await started.next()
        cancelled.cancel()
        let error = try await #require(throws: HTTPTransportError.self) { try await cancelled.value }
        #expect(error.code == .cancelled)
        let (body, _) = try await mock.send(next)
        #expect(String(decoding: body, as: UTF8.self) == "first")
    }

    /// `MockTransport.swift` `send(_:)`: cancellation (`Task.checkCancellation()`, the clock's `CancellationError`) is
    /// thrown as `cancelled` with a `CancellationError` as `underlyingError`; `URLSessionTransport` gives the
    /// `URLError` `.cancelled` of the cancelled task (and its description says `URLError -999`).
    @Test func cancellingDuringTheDelayGivesTheURLErrorOfALiveTransport() async throws {
        let clock = RecordingClock(sleepsUntilCancelled: true)
        let mock = MockTransport(delay: .seconds(5), clock: clock)
        mock.register(.get, "/slow", .status(200))
        let slow = try request(.get, "https://h/slow")
        let task = Task { try await mock.send(slow) }
        var started = clock.started.makeAsyncIterator()
        _ = await started.next()
        task.cancel()
        let error = try await #require(throws: HTTPTransportError.self) { try await task.value }
        #expect(error.code == .cancelled)
        let underlying = try #require(error.underlyingError)
        // The live transport in a cancelled task: the task is cancelled before it is resumed, nothing is sent.
        let live = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await URLSessionTransport(configuration: .ephemeral).send(request(.get, "http://127.0.0.1:9/"))
        }
        let liveError = try await #require(throws: HTTPTransportError.self) { try await live.value }
        let liveUnderlying = try #require(liveError.underlyingError)
        #expect((liveUnderlying as NSError).domain == NSURLErrorDomain)
        #expect((liveUnderlying as NSError).code == URLError.Code.cancelled.rawValue)
        #expect((underlying as NSError).domain == NSURLErrorDomain)
        #expect((underlying as NSError).code == URLError.Code.cancelled.rawValue)
    }

    /// `MockTransport.swift` `register(_:_:query:delay:_:_:)`: the path is documented as "written as in a URL", but a
    /// `?query` in it becomes part of the last segment, so the route never matches; and its label
    /// (`GET /search?q=swift`) makes the `noMock` message list it as if it were exactly the failing request.
    @Test func aQueryWrittenInTheRoutePathMatches() async throws {
        let mock = MockTransport()
        mock.register(.get, "/search?q=swift", .text("swift"))
        let search = try request(.get, "https://h/search?q=swift")
        let (body, _) = try await mock.send(search)
        #expect(String(decoding: body, as: UTF8.self) == "swift")
    }

    /// `MockTransport.swift` `send(_:)`: the delay ignores `URLRequest.timeoutInterval`. With a server that answers
    /// after 5 s, `URLSessionTransport` fails a request with a 1 s timeout as `timedOut`; the mock answers 200.
    @Test func aDelayLongerThanTheRequestsTimeoutTimesOut() async throws {
        let clock = RecordingClock()
        let mock = MockTransport(clock: clock)
        mock.register(.get, "/slow", delay: .seconds(5), .status(200))
        var slow = try request(.get, "https://h/slow")
        slow.timeoutInterval = 1
        let error = try await #require(throws: HTTPTransportError.self) { try await mock.send(slow) }
        #expect(error.code == .timedOut)
        #expect(clock.sleeps == [.seconds(1)])
    }

    /// `MockTransport.swift` `send(_:)` `clock.sleep(for: wait)`: on the default `ContinuousClock`, a delay longer
    /// than about 292 years (`Int64.max` nanoseconds), for example `.seconds(.max)` for "never answers" in a
    /// preview, traps in the runtime ("Not enough bits to represent the passed value") and kills the process; the
    /// tests that say huge delays never trap (`DelayTests.delaysNeverTrap`) only use a test clock.
    @Test func aHugeDelayOnTheDefaultClockDoesNotTrap() async {
        await #expect(processExitsWith: .success) {
            let mock = MockTransport(delay: .seconds(Int64.max))
            mock.register(.get, "/forever", .status(200))
            let forever = try request(.get, "https://h/forever")
            let task = Task { try await mock.send(forever) }
            try await Task.sleep(for: .milliseconds(100))
            task.cancel()
            _ = try? await task.value
        }
    }

    /// `MockTransport.swift` `send(_:)`: the request path was decoded strictly (as `MockFiles.fileName(for:path:)`
    /// decodes it), which throws for percent-encoding that is not UTF-8, before routes are looked at. `register`
    /// keeps such a path as written (`segments(of:)` falls back on purpose), so the route could never answer; the
    /// request failed as `invalidRequest` although a live transport sends it (`%E9` is Latin-1 `é`, valid in a URL).
    @Test func aRouteWhosePathIsNotUTF8Answers() async throws {
        let mock = MockTransport()
        mock.register(.get, "/legacy/jos%E9", .status(200))
        let legacy = try request(.get, "https://h/legacy/jos%E9")
        let (_, response) = try await mock.send(legacy)
        #expect(response.statusCode == 200)
    }

    /// `MockTransport.swift` `send(_:)`: `Task.checkCancellation()` runs before `request.validate()`, so an invalid
    /// request of a cancelled task fails as `cancelled`. The DocC (step 1: recorded, then refused as
    /// `invalidRequest`, "as on a live transport") and `URLSessionTransport` (validation in `makeDataTask`, before
    /// its cancellation is looked at) say `invalidRequest`.
    @Test func anInvalidRequestOfACancelledTaskIsInvalid() async throws {
        let mock = MockTransport()
        mock.register(.get, "/users", .json("[]"))
        var injected = try request(.get, "https://h/users")
        injected.setHeader("X-Evil", "a\r\nX-Injected: 1")
        let evil = injected  // a constant: the tasks below capture it
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await mock.send(evil)
        }
        let error = try await #require(throws: HTTPTransportError.self) { try await task.value }
        // The live transport, on the same request in a cancelled task (refused before anything is sent).
        let live = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await URLSessionTransport(configuration: .ephemeral).send(evil)
        }
        let liveError = try await #require(throws: HTTPTransportError.self) { try await live.value }
        #expect(liveError.code == .invalidRequest)
        #expect(error.code == .invalidRequest)
    }

    /// `MockTransport.swift` `Route.label` and `fileResponse` (`"/" + segments.joined(separator: "/")`): decoded
    /// segments are joined as they are, so a route on `/projects/a%2Fb` is listed as `GET /projects/a/b` in the
    /// `noMock` of the request `GET /projects/a/b`, which it did not match: the message names the request itself as
    /// a registered route.
    @Test func theNoMockMessageTellsAnEncodedSlashFromASeparator() async throws {
        let mock = MockTransport()
        mock.register(.get, "/projects/a%2Fb", .text("project"))
        let error = await mockError(mock, try request(.get, "https://h/projects/a/b"))
        guard case .noMock(_, let path, _, _, let routes) = error else {
            Issue.record("expected noMock, got \(String(describing: error))")
            return
        }
        #expect(routes != ["GET \(path)"])
    }
}
