import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

/// Revalidation, freshness, the stored value and cancel-when-unobserved, on a mock transport and a test clock (the
/// same behaviour over real HTTP: the root's `RevalidationIntegrationTests`).
@Suite(.timeLimit(.minutes(1))) struct RevalidationTests {
    /// A new temporary directory for a `FileResponseStore`.
    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    }

    /// Answers `/text` with `"v1"`, fresh for 30 seconds, then with two bare `304`s.
    static func revalidatingMock() -> MockTransport {
        let mock = MockTransport()
        mock.register(
            .get, "/text", .text("v1", headers: ["ETag": #""1""#, "Cache-Control": "max-age=30"]), .status(304),
            .status(304))
        return mock
    }

    /// An HTTP date, for `Last-Modified`, `Date` and `Expires`.
    static let date = "Wed, 21 Oct 2015 07:28:00 GMT"

    @MainActor @Test func aBare304KeepsTheFreshnessOfTheResponseItConfirms() async throws {
        let (clock, mock) = (TestClock(), Self.revalidatingMock())
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, clock: clock)
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v1") }

        for secondsLater in [31, 29, 2] {  // stale: a 304; still fresh; stale again
            clock.advance(by: .seconds(secondsLater))
            endpoint.loadIfNeeded()
            await endpoint.task?.value
        }

        #expect(endpoint.state == .success("v1"))
        #expect(mock.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, #""1""#, #""1""#])
    }

    /// The validators are set with the request's own fields in one assignment: a field of the same name in another
    /// case is replaced (as `setValue(_:forHTTPHeaderField:)` replaced it), the others stay.
    @MainActor @Test func theValidatorsReplaceTheRequestsOwnConditionalFieldsAndKeepTheRest() async throws {
        let mock = MockTransport()
        mock.register(.get, "/text", .text("v1", headers: ["ETag": #""1""#, "Last-Modified": Self.date]), .status(304))
        var request = URLRequest(url: try #require(URL(string: "https://example.com/text")))
        // Set as given: `setValue(_:forHTTPHeaderField:)` would change the name's case on Linux.
        request.allHTTPHeaderFields = ["if-none-match": #""0""#, "Accept": "text/plain"]
        let endpoint = StatefulEndpoint(
            endpoint: Endpoint(request: request) { data, _ in .success(String(decoding: data ?? Data(), as: UTF8.self))
            },
            transport: mock)
        endpoint.load()
        await endpoint.task?.value
        endpoint.load()
        await endpoint.task?.value

        #expect(endpoint.state == .success("v1"))
        let sent = try #require(mock.requests.last)
        let fields = sent.allHTTPHeaderFields ?? [:]
        #expect(fields.keys.filter { $0.lowercased() == "if-none-match" }.count == 1)
        #expect(sent.value(forHTTPHeaderField: "If-None-Match") == #""1""#)
        #expect(sent.value(forHTTPHeaderField: "If-Modified-Since") == Self.date)
        #expect(sent.value(forHTTPHeaderField: "Accept") == "text/plain")
        #expect(sent.cachePolicy == .reloadIgnoringLocalCacheData)
    }

    /// A validator with CR or LF cannot be sent (sending refuses the field): the reload goes without it, as
    /// FoundationNetworking's `setValue(_:forHTTPHeaderField:)`, which the reload used before, dropped such a value.
    @MainActor @Test func aValidatorWithALineBreakIsNotSent() async throws {
        let mock = MockTransport()
        mock.register(
            .get, "/text", .text("v1", headers: ["ETag": "\"1\"\n", "Last-Modified": Self.date]), .text("v2"))
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock)
        endpoint.load()
        await endpoint.task?.value
        endpoint.load()
        await endpoint.task?.value

        #expect(endpoint.state == .success("v2"))
        #expect(mock.requests.last?.value(forHTTPHeaderField: "If-None-Match") == nil)
        #expect(mock.requests.last?.value(forHTTPHeaderField: "If-Modified-Since") == Self.date)
    }

    @Test func theServerSideCacheKeepsTheFreshnessOfTheResponseA304Confirms() async throws {
        let (clock, mock) = (TestClock(), Self.revalidatingMock())
        let cache = EndpointCache(endpoint: textEndpoint(), transport: mock, clock: clock)
        #expect(try await cache.value() == "v1")

        for secondsLater in [31, 29, 2] {  // stale: a 304; still fresh; stale again
            clock.advance(by: .seconds(secondsLater))
            #expect(try await cache.value() == "v1")
        }

        #expect(mock.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, #""1""#, #""1""#])
    }

    @MainActor @Test func clearForgetsTheStoredValueOfferedAtLaunch() async {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let mock = MockTransport()
        mock.register(.get, "/text", .text("v1"), .text("v2"), .text("v3"))
        let first = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, store: store)
        first.load()
        await first.task?.value  // "v1" stored

        let relaunched = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, store: store)
        relaunched.load()
        await relaunched.task?.value  // "v1" from the disk, then "v2" from the server
        let received = Received()
        relaunched.observe(owner: received) { [received] in received.states.append($0) }
        relaunched.clear()
        relaunched.load()
        await relaunched.task?.value

        #expect(received.states == [.success("v2"), .idle, .loading, .success("v3")])
        #expect(mock.requests.count == 3)
    }

    @MainActor @Test func aLoadClearedBeforeTheStoreAnsweredShowsNothing() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let mock = MockTransport()
        mock.register(.get, "/text", .text("v1"), .text("v2"))
        let first = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, store: store)
        first.load()
        await first.task?.value

        let relaunched = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, store: store)
        relaunched.load()
        let load = try #require(relaunched.task)
        relaunched.clear()
        await load.value
        try await Task.sleep(for: .milliseconds(10))  // time for the launch's own offer of the stored value

        #expect(relaunched.state == .idle)
        #expect(relaunched.value == nil)
    }

    @Test func lastModifiedIsSentBackAsIfModifiedSinceAndA304KeepsTheValue() async throws {
        let mock = MockTransport()
        let validated = MockResponse.text("v1", headers: ["Last-Modified": Self.date, "Cache-Control": "no-cache"])
        mock.register(.get, "/text", validated, .status(304))
        let cache = EndpointCache(endpoint: textEndpoint(), transport: mock)

        #expect(try await cache.value() == "v1")
        #expect(try await cache.value() == "v1")  // no-cache: revalidated, and the 304 keeps the value

        #expect(mock.requests.map { $0.value(forHTTPHeaderField: "If-Modified-Since") } == [nil, Self.date])
    }

    /// URLSession's own cache must neither answer a conditional request nor turn its `304` into a cached `200`.
    @Test func onlyAConditionalRequestBypassesTheURLCache() async throws {
        let (clock, mock) = (TestClock(), Self.revalidatingMock())
        let cache = EndpointCache(endpoint: textEndpoint(), transport: mock, clock: clock)
        _ = try await cache.value()
        clock.advance(by: .seconds(31))
        _ = try await cache.value()

        #expect(mock.requests.map(\.cachePolicy) == [.useProtocolCachePolicy, .reloadIgnoringLocalCacheData])
    }

    @Test func aMaximumAgeOverridesTheFreshnessTheResponseSays() async throws {
        let clock = TestClock()
        let mock = MockTransport()
        mock.register(.get, "/text", .text("v1", headers: ["Cache-Control": "max-age=60"]), .text("v2"))
        let cache = EndpointCache(endpoint: textEndpoint(), transport: mock, maximumAge: .seconds(10), clock: clock)
        #expect(try await cache.value() == "v1")

        clock.advance(by: .seconds(10))

        #expect(try await cache.value() == "v2")
    }

    @Test(arguments: [
        (["Cache-Control": "max-age=60", "Age": "50"], 9, 1), (["Cache-Control": "max-age=60", "Age": "50"], 10, 2),
        (["Cache-Control": "Max-Age=60"], 59, 1), (["Cache-Control": "Max-Age=60"], 60, 2),
        (["Date": date, "Expires": "Wed, 21 Oct 2015 07:38:00 GMT"], 599, 1),
        (["Date": date, "Expires": "Wed, 21 Oct 2015 07:38:00 GMT"], 600, 2),
        (["Expires": "0"], 0, 2),  // not a date: already expired
    ])
    func withoutAMaximumAgeTheResponsesHeadersSayHowLongItIsFresh(
        headers: [String: String], secondsLater: Int, requests: Int
    ) async throws {
        let clock = TestClock()
        let mock = MockTransport()
        mock.register(.get, "/text", .text("v1", headers: headers), .text("v2"))
        let cache = EndpointCache(endpoint: textEndpoint(), transport: mock, clock: clock)
        _ = try await cache.value()

        clock.advance(by: .seconds(secondsLater))
        _ = try await cache.value()

        #expect(mock.requests.count == requests, "\(headers), \(secondsLater) s later")
    }

    @MainActor @Test func a304LeavesTheStoredResponseAsItWas() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: Self.revalidatingMock(), store: store)
        endpoint.load()
        await endpoint.task?.value  // "v1" stored
        endpoint.load()
        await endpoint.task?.value  // a 304

        let stored = await store.restore(for: textEndpoint().request) { body, response in
            "\(response.statusCode) \(String(decoding: body, as: UTF8.self))"
        }
        #expect(stored == "200 v1")
    }

    @MainActor @Test func aLoadNobodyEverObservedIsNotCancelledAfterTheGracePeriod() async throws {
        let transport = NumberingTransport(holding: [1])
        let clock = TestClock(opened: 0)
        let endpoint = StatefulEndpoint(
            endpoint: textEndpoint(), transport: transport, cancelsUnobservedLoadAfter: .seconds(2), clock: clock)
        defer { clock.open(.max / 2) }  // lets the grace period's last sleep end
        endpoint.loadIfNeeded()  // a prefetch: no screen observes it yet
        let load = try #require(endpoint.task)
        await transport.waitForCalls(1)
        await clock.waitForSleeps(1)
        clock.open()  // two seconds later
        await clock.waitForSleeps(2)  // the check ran and sleeps again

        #expect(!load.isCancelled)
        transport.release()
        await load.value
        #expect(endpoint.state == .success("v1"))
    }

    /// Whether a load was observed is its own: a prefetch after an observed load that its screen left is a prefetch.
    @MainActor @Test func aPrefetchAfterAnObservedLoadIsNotCancelledAfterTheGracePeriod() async throws {
        let transport = NumberingTransport(holding: [2])
        let clock = TestClock(opened: 0)
        let endpoint = StatefulEndpoint(
            endpoint: textEndpoint(), transport: transport, cancelsUnobservedLoadAfter: .seconds(2), clock: clock)
        defer { clock.open(.max / 2) }  // lets the grace periods' last sleeps end
        var owner: Owner? = Owner()
        endpoint.observe(owner: try #require(owner)) { _ in }
        await endpoint.task?.value  // "v1", observed
        await clock.waitForSleeps(1)  // its grace period's check, which ends with the load
        owner = nil
        endpoint.load()  // a prefetch: nobody observes it
        let prefetch = try #require(endpoint.task)
        await transport.waitForCalls(2)
        await clock.waitForSleeps(2)
        clock.open(2)  // two seconds later
        await clock.waitForSleeps(3)  // the prefetch's check ran and sleeps again

        #expect(!prefetch.isCancelled)
        transport.release()
        await prefetch.value
        #expect(endpoint.state == .success("v2"))
    }

    @MainActor @Test func aLoadReplacedWhileItsResponseIsBeingStoredIsNeverShown() async throws {
        let store = HoldingStore()
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: NumberingTransport(), store: store)
        endpoint.load()
        let first = try #require(endpoint.task)
        for await _ in store.saving { break }  // "v1" arrived and is being stored
        endpoint.load()  // replaces it
        let second = try #require(endpoint.task)
        await second.value

        store.release()
        await first.value

        #expect(endpoint.state == .success("v2"))
        #expect(endpoint.value == "v2")
    }

    @MainActor @Test(arguments: [true, false])
    func aLoadNobodyObservesAnyMoreIsCancelledAfterTheGracePeriodOnlyWhenAsked(cancels: Bool) async throws {
        let transport = NumberingTransport(holding: [1])
        let clock = TestClock(opened: 0)
        let endpoint = StatefulEndpoint(
            endpoint: textEndpoint(), transport: transport, cancelsUnobservedLoadAfter: cancels ? .seconds(2) : nil,
            clock: clock)
        var owner: Owner? = Owner()
        endpoint.observe(owner: try #require(owner)) { _ in }
        let load = try #require(endpoint.task)
        await transport.waitForCalls(1)
        defer { clock.open(.max / 2) }  // lets the grace period's last sleep end

        if cancels {
            await clock.waitForSleeps(1)
            clock.open()  // two seconds later, still observed: the load goes on
            await clock.waitForSleeps(2)
            #expect(!load.isCancelled)
            owner = nil  // the screen goes away
            clock.open()  // at the next check, nobody observes it: gone for up to two seconds only
            await clock.waitForSleeps(3)
            #expect(!load.isCancelled)
            clock.open()  // two seconds later, still nobody
            await clock.waitForSleeps(4)
            #expect(load.isCancelled)
            #expect(endpoint.state == .idle)
        } else {
            owner = nil
        }
        transport.release()
        await load.value
        #expect(load.isCancelled == cancels)
        #expect(endpoint.state == (cancels ? .idle : .success("v1")))
    }

    @MainActor @Test func aReloadCancelledAfterTheGracePeriodGoesBackToTheKeptValueAndLoadIfNeededLoadsAgain()
        async throws
    {
        let transport = NumberingTransport(holding: [2])
        let clock = TestClock(opened: 0)
        let endpoint = StatefulEndpoint(
            endpoint: textEndpoint(), transport: transport, maximumAge: .seconds(10),
            cancelsUnobservedLoadAfter: .seconds(2), clock: clock)
        defer { clock.open(.max / 2) }  // lets the grace period's last sleep end
        endpoint.loadIfNeeded()
        await endpoint.task?.value  // "v1", kept
        await clock.waitForSleeps(1)
        clock.open()  // the first load's grace period: that load is over, its check ends

        clock.advance(by: .seconds(11))  // stale: a new screen reloads it
        var owner: Owner? = Owner()
        endpoint.observe(owner: try #require(owner)) { _ in }
        let reload = try #require(endpoint.task)
        await transport.waitForCalls(2)
        await clock.waitForSleeps(2)
        owner = nil  // the screen goes away while the reload runs
        clock.open()  // at the next check nobody observes it; two seconds later still nobody
        await clock.waitForSleeps(3)
        #expect(!reload.isCancelled)
        clock.open()
        await clock.waitForSleeps(4)  // the check cancelled the reload before sleeping again

        #expect(reload.isCancelled)
        #expect(endpoint.state == .success("v1"))  // the kept value again, not a failure nor `.idle`
        #expect(endpoint.value == "v1")
        transport.release()
        await reload.value
        #expect(endpoint.state == .success("v1"))  // the cancelled reload's late "v2" is dropped

        endpoint.loadIfNeeded()  // the kept value is still stale: it loads again
        #expect(endpoint.state == .loading)
        await endpoint.task?.value
        #expect(endpoint.state == .success("v3"))
        #expect(transport.calls == 3)
    }
}
