import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

@Suite(.timeLimit(.minutes(1))) struct LoadingTests {
    @Test func thousandConcurrentLoadIfNeededCallsSendOneRequest() async {
        let clock = TestClock(opened: 0)
        let mock = numberedMock(clock)
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 { group.addTask { await endpoint.loadIfNeeded() } }
        }
        #expect(await endpoint.state == .loading)
        await clock.waitForSleeps(1)
        clock.open()
        await waitUntil(endpoint) { $0 == .success("v1") }
        await endpoint.loadIfNeeded()
        #expect(mock.requests.count == 1)
        #expect(await endpoint.state == .success("v1"))
    }

    @MainActor @Test func loadWhileLoadingCancelsTheLoadInFlightAndItsLateAnswerIsNeverDelivered() async throws {
        // The first call ignores its cancellation and answers "v1" after the second load began.
        let transport = NumberingTransport(holding: [1])
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        let owner = Owner()
        var seen: [RequestState<String>] = []
        endpoint.observe(owner: owner) { seen.append($0) }  // starts the first load
        let first = try #require(endpoint.task)
        await transport.waitForCalls(1)
        endpoint.load()
        #expect(first.isCancelled)
        await waitUntil(endpoint) { $0 == .success("v2") }
        transport.release()
        await first.value  // the late answer arrived on the main actor and was dropped
        #expect(seen == [.idle, .loading, .success("v2")])
        #expect(endpoint.state == .success("v2"))
        #expect(transport.calls == 2)
    }

    @MainActor @Test func clearCancelsTheLoadInFlightDropsItsAnswerAndForgetsTheValue() async throws {
        let transport = NumberingTransport(holding: [2])
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v1") }
        #expect(endpoint.value == "v1")
        endpoint.load()
        let second = try #require(endpoint.task)
        #expect(endpoint.value == "v1")  // kept while the reload runs
        endpoint.clear()
        #expect(second.isCancelled)
        #expect(endpoint.state == .idle)
        #expect(endpoint.value == nil)
        transport.release()
        await second.value
        #expect(endpoint.state == .idle)
        #expect(endpoint.value == nil)
    }

    @MainActor @Test func aFailureKeepsTheTypedErrorAndTheLastValueAndLoadIfNeededRetries() async throws {
        let mock = MockTransport()
        mock.register(.get, "/text", .text("v1"), .status(500), .text("v3"))
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock)
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v1") }
        endpoint.load()
        let failure = try #require(await waitUntil(endpoint) { $0.isFailure }?.error)
        let transportError = try #require(failure.underlyingError as? HTTPTransportError)
        #expect(transportError.code == .unacceptableStatus(500))
        #expect(failure.message.contains("500"))
        #expect(endpoint.value == "v1")  // the last good value survives a failed reload
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v3") }
        #expect(mock.requests.count == 3)
    }

    @MainActor @Test func loadAlwaysSendsANewRequestAndLoadIfNeededDoesNotWhileLoaded() async {
        let mock = numberedMock()
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock)
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v1") }
        endpoint.loadIfNeeded()
        #expect(endpoint.state == .success("v1"))
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v2") }
        #expect(mock.requests.count == 2)
    }

    /// Decoding must not hold up the main actor: the parse waits until the main actor has run other work.
    @MainActor @Test func decodingRunsOffTheMainActor() async {
        let mainActorRan = DispatchSemaphore(value: 0)
        let endpoint = StatefulEndpoint(
            endpoint: Endpoint<Bool>(request: textEndpoint().request) { _, _ in
                .success(mainActorRan.wait(timeout: .now() + 10) == .success)  // times out if parsing blocks it
            }, transport: numberedMock())
        endpoint.load()
        Task { @MainActor in mainActorRan.signal() }
        await waitUntil(endpoint) { !$0.isLoading }
        #expect(endpoint.state == .success(true))
    }
}

@Suite(.timeLimit(.minutes(1))) struct FreshnessTests {
    let clock = TestClock()

    @MainActor func endpoint(maximumAge: Duration?, mock: MockTransport? = nil) -> StatefulEndpoint<String> {
        StatefulEndpoint(
            endpoint: textEndpoint(), transport: mock ?? numberedMock(), maximumAge: maximumAge, clock: clock)
    }

    @MainActor @Test func loadIfNeededReloadsOnlyOnceTheValueIsOlderThanTheMaximumAge() async {
        let mock = numberedMock()
        let endpoint = endpoint(maximumAge: .seconds(60), mock: mock)
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v1") }
        clock.advance(by: .seconds(59))
        endpoint.loadIfNeeded()
        #expect(endpoint.state == .success("v1"))
        clock.advance(by: .seconds(1))
        endpoint.loadIfNeeded()
        #expect(endpoint.state == .loading)
        #expect(endpoint.value == "v1")  // still there while the reload runs
        await waitUntil(endpoint) { $0 == .success("v2") }
        #expect(mock.requests.count == 2)
    }

    @MainActor @Test func withoutAMaximumAgeAValueStaysFresh() async {
        let mock = numberedMock()
        let endpoint = endpoint(maximumAge: nil, mock: mock)
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v1") }
        clock.advance(by: .seconds(365 * 24 * 3600))
        endpoint.loadIfNeeded()
        #expect(endpoint.state == .success("v1"))
        #expect(mock.requests.count == 1)
    }

    @MainActor @Test func aNewObserverOfAStaleValueTriggersAReload() async {
        let endpoint = endpoint(maximumAge: .seconds(10))
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v1") }
        clock.advance(by: .seconds(11))
        let owner = Owner()
        var seen: [RequestState<String>] = []
        endpoint.observe(owner: owner) { seen.append($0) }
        await waitUntil(endpoint) { $0 == .success("v2") }
        #expect(seen == [.success("v1"), .loading, .success("v2")])
    }

    @MainActor @Test func theAgeCountsFromWhenTheAnswerArrived() async {
        let slow = TestClock(opened: 0)
        let endpoint = endpoint(maximumAge: .seconds(10), mock: numberedMock(slow))
        endpoint.loadIfNeeded()
        await slow.waitForSleeps(1)
        clock.advance(by: .seconds(30))  // the request took 30 s
        slow.open()
        await waitUntil(endpoint) { $0 == .success("v1") }
        clock.advance(by: .seconds(9))
        endpoint.loadIfNeeded()
        #expect(endpoint.state == .success("v1"))
    }
}
