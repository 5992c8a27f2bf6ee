import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

/// Edges of a load's lifetime: a store that does not answer, `clear()` and release while the store is read, a zero
/// maximum age, header names as an HTTP/2 server spells them, the server-side cache's callers, and a registry that lets
/// go of a loading instance from another thread (the one open bug: `withKnownIssue`).
@Suite(.timeLimit(.minutes(1))) struct LoadLifetimeAndStoreEdgeTests {
    /// A store whose restores wait until ``release()`` and then find `"v0"` (with `ETag: "0"`): a slow disk, or a
    /// store of another kind that does not answer.
    final class StallingStore: ResponseStore {
        private let restoreCount = Locked(0)
        private let gate = Gate()
        /// Yields when a restore starts.
        let restoring: AsyncStream<Void>
        private let started: AsyncStream<Void>.Continuation

        init() { (restoring, started) = AsyncStream.makeStream() }

        var restores: Int { restoreCount.withLock { $0 } }

        /// Lets every restore answer, now and from now on.
        func release() { gate.open() }

        func restore<Value>(
            for request: URLRequest, _ decode: @Sendable (Data, HTTPURLResponse) throws -> Value
        ) async -> Value? {
            restoreCount.withLock { $0 += 1 }
            started.yield()
            await gate.wait()
            let url = request.url ?? URL(fileURLWithPath: "/")
            let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: ["ETag": #""0""#])
            return response.flatMap { try? decode(Data("v0".utf8), $0) }
        }

        func save(_ body: Data, _ response: HTTPURLResponse, for request: URLRequest) async {}
    }

    /// HTTP/2 sends every field name in lower case (RFC 9113 §8.2.1) and AsyncHTTPClientTransport keeps the names as
    /// they came, while `updated(by:)` drops the kept `Age` by its exact spelling: a `304` must drop an `age` too (here
    /// `HTTPURLResponse` spells it `Age`, so a confirmed value is fresh for the whole `max-age` again).
    @Test func aNotModifiedDropsTheKeptAgeWhateverTheCaseOfItsName() async throws {
        let clock = TestClock()
        let mock = MockTransport()
        let first = ["etag": #""1""#, "cache-control": "max-age=120", "age": "100"]
        mock.register(.get, "/text", .text("v1", headers: first), .status(304, headers: ["etag": #""1""#]))
        let cache = EndpointCache(endpoint: textEndpoint(), transport: mock, clock: clock)
        #expect(try await cache.value() == "v1")  // fresh for 20 s: 120 s less the 100 s it was old
        clock.advance(by: .seconds(21))
        #expect(try await cache.value() == "v1")  // stale: the 304 confirms it, fresh for 120 s from now
        #expect(mock.requests.count == 2)

        clock.advance(by: .seconds(60))
        #expect(try await cache.value() == "v1")
        #expect(mock.requests.count == 2)
    }

    /// `StatefulEndpoint.swift` `load()`: a load without a value waits for the store's restore before it sends its
    /// request, with no bound. A store that does not answer (a stalled disk, a store backed by a service) keeps every
    /// load off the network: `load()` "starts a new load" that waits for the same restore; only `clear()` gets one out.
    @MainActor @Test func aStoreThatDoesNotAnswerKeepsNoLoadOffTheNetwork() async throws {
        let store = StallingStore()
        let mock = MockTransport()  // fails a cancelled load's request before it takes an answer
        mock.register(.get, "/text", .text("v1"))
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock, store: store)
        endpoint.loadIfNeeded()
        for await _ in store.restoring { break }
        endpoint.load()  // "always starts a new load"
        let load = try #require(endpoint.task)
        for _ in 0..<200 { await Task.yield() }  // time for a request to go out

        withKnownIssue("a load waits for the store's restore, unbounded, before it sends anything") {
            #expect(!mock.requests.isEmpty)
        }
        #expect(endpoint.state == .loading)
        store.release()
        await load.value
        #expect(endpoint.state == .success("v1"))  // revalidated the stored "v0"
        #expect(mock.requests.last?.value(forHTTPHeaderField: "If-None-Match") == #""0""#)
    }

    /// An observer that clears the endpoint when handed the stored value (a sign-out screen) ends the launch's load
    /// there: nothing is shown after its `.idle`, neither the stored value again nor the network's answer.
    @MainActor @Test func clearingInTheStoredValuesDeliveryEndsTheLaunchsLoad() async throws {
        let (store, transport) = (StallingStore(), NumberingTransport())
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport, store: store)
        let received = Received()
        let owner = Owner()
        endpoint.observe(owner: owner) { [weak endpoint] state in
            received.states.append(state)
            if state == .success("v0") { endpoint?.clear() }
        }
        let load = try #require(endpoint.task)
        store.release()
        await load.value
        for _ in 0..<50 { await Task.yield() }  // time for the launch's own offer of the stored value

        #expect(received.states == [.idle, .loading, .success("v0"), .idle])
        #expect(endpoint.value == nil)
        #expect(endpoint.task == nil)
    }

    /// An endpoint released while its first load waits for the store is deallocated at once: neither the load nor the
    /// launch's offer of the stored value keeps it alive, and its sequences end.
    @MainActor @Test func anEndpointReleasedWhileItsStoreIsReadIsDeallocated() async throws {
        let (store, transport) = (StallingStore(), NumberingTransport())
        var endpoint: StatefulEndpoint<String>? = StatefulEndpoint(
            endpoint: textEndpoint(), transport: transport, store: store)
        weak let released = endpoint
        var iterator = endpoint?.states.makeAsyncIterator()
        #expect(await iterator?.next() == .idle)
        endpoint?.load()
        let load = try #require(endpoint?.task)
        #expect(await iterator?.next() == .loading)
        endpoint = nil

        #expect(released == nil)
        #expect(await iterator?.next() == nil)
        store.release()
        await load.value
    }

    /// `StatefulEndpoint.swift` `load()`: nothing checked for cancellation between the wait for the store and the
    /// send, so a load cleared (a sign-out) or released while the store was read still sent its request once the store
    /// answered, through a transport that does not check first (a custom transport or middleware). It sends nothing.
    @MainActor @Test func aLoadClearedWhileTheStoreIsReadSendsNothing() async throws {
        let (store, transport) = (StallingStore(), NumberingTransport())
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport, store: store)
        endpoint.load()
        let load = try #require(endpoint.task)
        for await _ in store.restoring { break }
        endpoint.clear()
        store.release()
        await load.value

        #expect(transport.calls == 0)
        #expect(endpoint.state == .idle)
        #expect(endpoint.value == nil)
    }

    /// `maximumAge: .zero` overrides a response fresh for a minute: with the clock standing still, every
    /// `loadIfNeeded()` (and a new observer) revalidates, and each `304` keeps the value.
    @MainActor @Test func aZeroMaximumAgeRevalidatesAValueTheServerSaysIsFresh() async throws {
        let mock = MockTransport()
        let fresh = MockResponse.text("v1", headers: ["ETag": #""1""#, "Cache-Control": "max-age=60"])
        mock.register(.get, "/text", fresh, .status(304), .status(304))
        let endpoint = StatefulEndpoint(
            endpoint: textEndpoint(), transport: mock, maximumAge: .zero, clock: TestClock())
        endpoint.loadIfNeeded()
        await endpoint.task?.value
        endpoint.loadIfNeeded()
        await endpoint.task?.value
        let owner = Owner()
        endpoint.observe(owner: owner) { _ in }
        await endpoint.task?.value

        #expect(endpoint.state == .success("v1"))
        #expect(mock.requests.map { $0.value(forHTTPHeaderField: "If-None-Match") } == [nil, #""1""#, #""1""#])
    }

    /// A request handler cancelled before it even asks (its client already gone) starts the shared load and leaves at
    /// once; the handlers that ask meanwhile share that one load, and its value is kept.
    @Test func aCallerCancelledBeforeItAsksStartsTheLoadTheOthersShare() async throws {
        let clock = TestClock(opened: 0)
        let mock = numberedMock(clock)
        let cache = EndpointCache(endpoint: textEndpoint(), transport: mock)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await cache.value()
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        await clock.waitForSleeps(1)  // its load is in flight
        let others = (0..<20).map { _ in Task { try await cache.value() } }
        for _ in 0..<200 { await Task.yield() }  // time for them to join the load
        clock.open(.max / 2)

        for other in others { #expect(try await other.value == "v1") }
        #expect(try await cache.value() == "v1")
        #expect(mock.requests.count == 1)
    }

    /// `removeAll()` from another thread releases a loading instance nobody else holds there, off the main actor: its
    /// load is cancelled and its observations end on the main actor.
    @Test func removingALoadingInstanceFromAnotherThreadEndsItsObservations() async throws {
        let transport = NumberingTransport(holding: [1])
        let registry = EndpointRegistry(transport: transport)
        let (states, load) = try await MainActor.run {
            let endpoint = registry.statefulEndpoint(for: textEndpoint())
            let states = endpoint.states
            endpoint.load()
            return (states, try #require(endpoint.task))
        }
        await transport.waitForCalls(1)
        await Task.detached { registry.removeAll() }.value
        var seen: [RequestState<String>] = []
        for await state in states { seen.append(state) }

        #expect(seen == [.idle, .loading])
        #expect(load.isCancelled)
        transport.release()
        await load.value
    }
}
