import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

/// A clock on which time stands still: a sleep whose deadline has come (a sleep of no time) returns at once and is
/// counted; any other sleep waits until its task is cancelled.
final class StandingClock: Clock, Sendable {
    typealias Instant = TestClock.Instant

    private struct State {
        var immediateSleeps = 0
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Locked(State())

    var now: Instant { Instant(offset: .zero) }
    var minimumResolution: Duration { .zero }

    /// How many sleeps returned at once, without any time passing.
    var immediateSleeps: Int { state.withLock { $0.immediateSleeps } }

    /// How many sleeps are waiting now.
    var sleeping: Int { state.withLock { $0.waiting.count } }

    /// Ends every sleep waiting now, as if its time had come: a task left sleeping would outlive the test (and
    /// LeakSanitizer reports it).
    func wakeAll() {
        let waiting = state.withLock { state in
            defer { state.waiting = [:] }
            return state.waiting.values
        }
        for continuation in waiting { continuation.resume() }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        if deadline <= now {
            state.withLock { $0.immediateSleeps += 1 }
            return
        }
        let number = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let cancelled = state.withLock { state in
                    if Task.isCancelled { return true }
                    state.waiting[number] = continuation
                    return false
                }
                if cancelled { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: number) }?.resume()
        }
        try Task.checkCancellation()
    }
}

/// A server that honours preconditions as RFC 9110 §13.1.2 and §13.2.2 ask: a `GET` whose `If-None-Match` matches the
/// current `ETag` is a `304`; any other method whose `If-None-Match` matches is refused with `412 Precondition
/// Failed`. Every other request gets `results` with `ETag: "1"`.
final class PreconditionServer: HTTPTransport {
    private let sent = Locked([URLRequest]())

    /// Every request received, in order.
    var requests: [URLRequest] { sent.withLock { $0 } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        sent.withLock { $0.append(request) }
        let url = try #require(request.url)
        let matches = request.value(forHTTPHeaderField: "If-None-Match") == #""1""#
        let status = matches ? (request.method == .get ? 304 : 412) : 200
        let headers = ["ETag": #""1""#, "Content-Type": "text/plain"]
        let response = try #require(
            HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: headers))
        return (status == 200 ? Data("results".utf8) : Data(), response)
    }
}

/// Edges of revalidation (the method of a conditional request, a `304` without a `Date`), of what a
/// `FileResponseStore` offers once the latest answer is one it does not write, and of the unobserved-load grace period.
@Suite(.timeLimit(.minutes(1))) struct RevalidationStoreAndGraceEdgeTests {
    let directory = RevalidationTests.directory()

    // MARK: Conditional requests and the method

    /// A search sent as a `POST` (its query in the body: the README's and `FileResponseStore`'s "two searches POSTed to
    /// one URL").
    static func search() -> Endpoint<String> {
        var request = URLRequest(url: URL(string: "https://example.com/search") ?? URL(fileURLWithPath: "/"))
        (request.httpMethod, request.httpBody) = ("POST", Data(#"{"q":"swift"}"#.utf8))
        return Endpoint(request: request) { data, _ in .success(String(decoding: data ?? Data(), as: UTF8.self)) }
    }

    /// StatefulEndpoint+Revalidation.swift `fetch`: the `ETag` and `Last-Modified` of the last answer become
    /// `If-None-Match` and `If-Modified-Since` whatever the method. On a `POST`, `If-None-Match` is not "has it
    /// changed?" but "do it only if nothing matches": a server that follows RFC 9110 refuses the reload of an unchanged
    /// search with `412 Precondition Failed`, and the endpoint fails where a plain reload would have succeeded.
    @MainActor @Test func reloadingAPostSendsNoValidatorsAndSucceeds() async throws {
        let server = PreconditionServer()
        let endpoint = StatefulEndpoint(endpoint: Self.search(), transport: server)
        endpoint.load()
        await endpoint.task?.value
        #expect(endpoint.state == .success("results"))

        endpoint.load()  // pull to refresh
        await endpoint.task?.value

        let reload = try #require(server.requests.last)
        #expect(reload.value(forHTTPHeaderField: "If-None-Match") == nil)
        #expect(endpoint.state == .success("results"), "\(endpoint.state)")
        #expect(endpoint.value == "results")
    }

    /// The same through `EndpointCache` (one `fetch` for both): once the value is stale, every handler fails.
    @Test func theServerSideCacheRevalidatesAPostWithoutValidators() async throws {
        let server = PreconditionServer()
        let cache = EndpointCache(endpoint: Self.search(), transport: server, maximumAge: .zero, clock: TestClock())
        #expect(try await cache.value() == "results")

        let again = await Result { try await cache.value() }

        #expect((try? again.get()) == "results", "\(again)")
        #expect(server.requests.count == 2)
    }

    // MARK: A 304 without a Date

    /// `date` as an HTTP date (IMF-fixdate).
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        (formatter.locale, formatter.timeZone) = (Locale(identifier: "en_US_POSIX"), TimeZone(identifier: "GMT"))
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// StatefulEndpoint+Revalidation.swift `updated(by:)` and `freshnessLifetime`: a `304` without a `Date` (a server
    /// without a clock; RFC 9110 §6.6.1 has the recipient take the time it arrived as its date) leaves the confirmed
    /// response's old `Date` in place, so `Expires − Date` is that response's whole lifetime again, counted from now:
    /// a value whose `Expires` passed an hour ago is fresh for another hour, and `loadIfNeeded()` does not revalidate
    /// it. (With a `Date` on the `304` it is stale at once: StoreReviewFindingsTests.)
    @MainActor @Test func aDatelessNotModifiedDoesNotMakeAValueWhoseExpiresPassedFresh() async throws {
        let now = Date()
        let headers = [
            "ETag": #""1""#, "Date": Self.httpDate(now - 7_200),  // answered two hours ago,
            "Expires": Self.httpDate(now - 3_600),  // fresh for one hour, until an hour ago
        ]
        let (clock, mock) = (TestClock(), MockTransport())
        mock.register(.get, "/text", .text("v1", headers: headers), .status(304), .status(304))
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, clock: clock)
        endpoint.loadIfNeeded()
        await endpoint.task?.value
        clock.advance(by: .seconds(7_200))  // two hours later (the time of `now`)

        endpoint.loadIfNeeded()  // stale: a 304 without a Date
        await endpoint.task?.value
        #expect(endpoint.state == .success("v1"))
        endpoint.loadIfNeeded()  // its Expires passed an hour ago: it should revalidate again
        await endpoint.task?.value

        #expect(mock.requests.count == 3)
    }

    // MARK: What the store offers after an answer it does not write

    /// ResponseStore.swift `save`: a response it must not write (`Cache-Control: no-store`; the same for a `Vary` on
    /// other request headers) is skipped, and the file of the previous answer stays. Every later launch offers that
    /// older answer, although a newer one was seen (what ConcurrencyAuditTests calls a bug when a race causes it), and
    /// although the server now says this resource must not be kept: as long as it keeps saying so, nothing ever
    /// replaces or removes the old file.
    @MainActor @Test func aNoStoreAnswerLeavesNoOlderAnswerToOfferAtTheNextLaunch() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, log: { _ in })
        let mock = MockTransport()
        mock.register(.get, "/text", .text("v1"), .text("v2", headers: ["Cache-Control": "no-store"]))
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, store: store)
        endpoint.load()
        await endpoint.task?.value
        endpoint.load()
        await endpoint.task?.value
        #expect(endpoint.state == .success("v2"))  // the last answer seen

        let offline = MockTransport()  // the next launch, offline: nothing registered
        let relaunched = StatefulEndpoint(endpoint: textEndpoint(), transport: offline, store: store)
        relaunched.load()
        await relaunched.task?.value

        #expect(relaunched.value == nil, "offered \(String(describing: relaunched.value)), the answer before v2")
    }

    // MARK: The grace period of an unobserved load

    /// StatefulEndpoint.swift `load()`: the grace period's check sleeps `grace` between two checks, so a grace period
    /// of zero ("cancel as soon as nobody observes it", a value the parameter accepts) never waits: while the load runs,
    /// the check loops on the main actor, hop after hop, without any time passing (here over a thousand checks while
    /// the test yields the main actor a thousand times), for as long as the load lasts, observed or not.
    @MainActor @Test func aZeroGracePeriodDoesNotCheckAgainAndAgainWhileNoTimePasses() async throws {
        let clock = StandingClock()
        let transport = NumberingTransport(holding: [1])
        let endpoint = StatefulEndpoint(
            endpoint: textEndpoint(), transport: transport, cancelsUnobservedLoadAfter: .zero, clock: clock)
        let owner = Owner()
        endpoint.observe(owner: owner) { _ in }
        let load = try #require(endpoint.task)
        await transport.waitForCalls(1)  // the load waits for its answer, observed

        for _ in 0..<1_000 { await Task.yield() }  // the main actor is otherwise idle; no time passes on the clock

        #expect(clock.immediateSleeps <= 2, "\(clock.immediateSleeps) checks while no time passed")
        #expect(endpoint.state == .loading)
        transport.release()
        await load.value
        #expect(endpoint.state == .success("v1"))
        clock.wakeAll()  // the grace period's check, which sees the load ended and stops
        withExtendedLifetime(owner) {}
    }
}
