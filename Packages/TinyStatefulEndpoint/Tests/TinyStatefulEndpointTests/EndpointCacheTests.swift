import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks

@testable import TinyStatefulEndpoint

/// `EndpointCache`: one load for concurrent callers, freshness, revalidation and shared failures, off the main actor.
@Suite(.timeLimit(.minutes(1))) struct EndpointCacheTests {
    static let url = URL(string: "https://api.example.com/rates")

    @Test func concurrentCallersShareOneLoadUntilTheValueIsStale() async throws {
        let mock = MockTransport(delay: .milliseconds(1), clock: ContinuousClock())
        mock.register(.get, "/rates", .json(#"{"eur": 1}"#))
        let clock = TestClock()
        let cache = EndpointCache(
            endpoint: Endpoint<[String: Int]>(json: .get, url: try #require(Self.url)), transport: mock,
            maximumAge: .seconds(30), clock: clock)

        let values = try await withThrowingTaskGroup(of: [String: Int].self) { group in
            for _ in 0..<100 { group.addTask { try await cache.value() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values.count == 100 && values.allSatisfy { $0 == ["eur": 1] })
        #expect(mock.requests.count == 1)

        clock.advance(by: .seconds(29))
        _ = try await cache.value()
        #expect(mock.requests.count == 1)  // fresh
        clock.advance(by: .seconds(2))
        _ = try await cache.value()
        #expect(mock.requests.count == 2)  // stale: loaded again
    }

    @Test func cancellingTheCallerThatStartedTheSharedLoadDoesNotCancelItForTheOthers() async throws {
        let clock = TestClock(opened: 0)
        let mock = numberedMock(clock)  // its answer waits on `clock`, and a cancelled wait throws
        let cache = EndpointCache(endpoint: textEndpoint(), transport: mock)
        let starter = Task { try await cache.value() }
        await clock.waitForSleeps(1)  // the starter's load is in flight
        let other = Task { try await cache.value() }
        // Time for the other caller to join the load (if it came after it ended, it got the kept value, or, had the
        // load been cancelled, sent a second request: either way the checks below tell).
        for _ in 0..<100 { await Task.yield() }
        starter.cancel()
        clock.open(.max / 2)  // every request answers from now on: a second one would show, not hang

        #expect(try await other.value == "v1")
        #expect(mock.requests.count == 1)
        _ = await starter.result  // the cancelled caller's own answer is not what this pins
        #expect(try await cache.value() == "v1")  // kept: the load finished
        #expect(mock.requests.count == 1)
    }

    /// A request handler whose client went away ends at once, not when the upstream answers.
    @Test func cancelledCallersStopWaitingAtOnceAndTheLoadGoesOn() async throws {
        let clock = TestClock(opened: 0)
        let mock = numberedMock(clock)  // its answer waits on `clock`, opened only after the callers have ended
        let cache = EndpointCache(endpoint: textEndpoint(), transport: mock)
        let starter = Task { try await cache.value() }
        await clock.waitForSleeps(1)  // the starter's load is in flight
        let waiter = Task { try await cache.value() }
        for _ in 0..<100 { await Task.yield() }  // time for the waiter to join the load
        waiter.cancel()
        starter.cancel()

        await #expect(throws: CancellationError.self) { try await waiter.value }
        await #expect(throws: CancellationError.self) { try await starter.value }
        clock.open(.max / 2)
        #expect(try await cache.value() == "v1")  // the load went on, and the next caller shares it
        #expect(mock.requests.count == 1)
    }

    @Test func aStaleValueIsRevalidatedAndA304IsNotDecoded() async throws {
        let mock = MockTransport()
        mock.register(
            .get, "/rates", .json(#"{"eur": 1}"#, headers: ["ETag": #""r1""#, "Cache-Control": "no-cache"]),
            .status(304))
        let decodes = Locked(0)
        let endpoint = Endpoint<Int>(request: URLRequest(url: try #require(Self.url))) { data, _ in
            decodes.withLock { $0 += 1 }
            return .success(data?.count ?? 0)
        }
        let cache = EndpointCache(endpoint: endpoint, transport: mock)

        let first = try await cache.value()
        let second = try await cache.value()  // no-cache: always revalidated

        #expect(first == second)
        #expect(decodes.withLock { $0 } == 1)
        #expect(mock.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, #""r1""#])
    }

    @Test func aFailedLoadFailsItsWaitersAndTheNextCallTriesAgain() async throws {
        let mock = MockTransport()
        mock.register(.get, "/rates", .status(503), .json(#"{"eur": 2}"#))
        let cache = EndpointCache(
            endpoint: Endpoint<[String: Int]>(json: .get, url: try #require(Self.url)), transport: mock)

        let error = await #expect(throws: HTTPTransportError.self) { try await cache.value() }
        #expect(error?.code == .unacceptableStatus(503))
        #expect(try await cache.value() == ["eur": 2])
        #expect(mock.requests.count == 2)
    }
}
