import Foundation
import Testing
import TinyHTTPTransport
import TinyRequestState

@testable import TinyStatefulEndpoint

@Suite struct LoadingTests {
    @Test func thousandConcurrentLoadIfNeededCallsSendOneRequest() async {
        let gate = Gate()
        let transport = StubTransport { call, request in
            await gate.wait()
            return try await numberedResponses(call, request)
        }
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<1_000 { group.addTask { endpoint.loadIfNeeded() } }
        }
        #expect(endpoint.state == .loading)
        await gate.open()
        await waitUntil(endpoint) { $0 == .success("v1") }
        endpoint.loadIfNeeded()
        #expect(await transport.callCount == 1)
        #expect(endpoint.state == .success("v1"))
    }

    @Test func reloadDuringASlowLoadCancelsItAndOnlyTheNewerResultIsDelivered() async throws {
        let firstGate = Gate()
        let secondGate = Gate()
        let sawCancellation = Collected<Bool>()
        let transport = StubTransport { call, request in
            if call == 1 {
                await firstGate.wait()  // ignores cancellation on purpose: answers late, after the reload
                sawCancellation.append(Task.isCancelled)
            } else {
                await secondGate.wait()
            }
            return try await numberedResponses(call, request)
        }
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        var states = endpoint.states.makeAsyncIterator()
        #expect(await states.next() == .idle)
        endpoint.load()
        await transport.waitForCalls(1)
        let firstLoad = try #require(endpoint.core.withLock { $0.task })
        endpoint.reload()
        await transport.waitForCalls(2)

        await firstGate.open()
        await firstLoad.value  // the stale answer has arrived and been dropped
        #expect(sawCancellation.values == [true])
        #expect(endpoint.state == .loading)
        #expect(endpoint.lastValue == nil)

        await secondGate.open()
        #expect(await states.next() == .loading)  // once: a reload while loading is not a new state
        #expect(await states.next() == .success("v2"))
        #expect(endpoint.lastValue == "v2")
    }

    @Test func aTransportsCancellationHandlerMayCallBackIntoTheEndpoint() async {
        let endpointBox = Collected<StatefulEndpoint<String>>()
        let statesSeenOnCancel = Collected<RequestState<String>>()
        let gate = Gate()
        let entered = CallRecorder()
        let transport = StubTransport { call, request in
            try await withTaskCancellationHandler {
                _ = await entered.record()
                if call == 1 { await gate.wait() }
                return try await numberedResponses(call, request)
            } onCancel: {
                // Runs synchronously inside `cancel()`: it would deadlock if the endpoint cancelled under its lock.
                if let endpoint = endpointBox.values.first { statesSeenOnCancel.append(endpoint.state) }
            }
        }
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        endpointBox.append(endpoint)
        // The box, the transport's closure and the endpoint form a cycle: break it when the test ends.
        defer { endpointBox.removeAll() }
        endpoint.load()
        await entered.wait(for: 1)
        endpoint.reload()
        #expect(statesSeenOnCancel.values == [.loading])
        await gate.open()
        await waitUntil(endpoint) { $0 == .success("v2") }
    }

    @Test func clearCancelsTheLoadInFlightAndDropsItsAnswer() async throws {
        let gate = Gate()
        let transport = StubTransport { call, request in
            await gate.wait()
            return try await numberedResponses(call, request)
        }
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        endpoint.load()
        let load = try #require(endpoint.core.withLock { $0.task })
        endpoint.clear()
        #expect(endpoint.state == .idle)
        await gate.open()
        await load.value
        #expect(endpoint.state == .idle)
        #expect(endpoint.lastValue == nil)
    }

    @Test func clearForgetsTheLastValue() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: StubTransport(numberedResponses))
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v1") }
        #expect(endpoint.lastValue == "v1")
        endpoint.clear()
        #expect(endpoint.state == .idle)
        #expect(endpoint.lastValue == nil)
        #expect(endpoint.lastLoadDate == nil)
    }

    @Test func aFailureKeepsTheTypedErrorAndLoadIfNeededRetries() async throws {
        let transport = StubTransport { call, request in
            if call == 1 { return (Data("nope".utf8), try .ok(request, status: 500)) }
            return try await numberedResponses(call, request)
        }
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        endpoint.loadIfNeeded()
        let failure = try #require(await waitUntil(endpoint) { if case .failure = $0 { true } else { false } })
        guard case .failure(let error) = failure else { return }
        let transportError = try #require(error.underlyingError as? HTTPTransportError)
        #expect(transportError.code == .unacceptableStatus(500))
        #expect(error.message.contains("500"))
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v2") }
    }

    @Test func loadWhileIdleOrLoadedAlwaysSendsANewRequest() async {
        let transport = StubTransport(numberedResponses)
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v1") }
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v2") }
        #expect(await transport.callCount == 2)
    }
}

@Suite struct FreshnessTests {
    let clock = TestClock()
    let transport = StubTransport(numberedResponses)

    func endpoint(maximumAge: TimeInterval?) -> StatefulEndpoint<String> {
        let clock = self.clock
        return StatefulEndpoint(
            endpoint: textEndpoint(), transport: transport, maximumAge: maximumAge, now: { clock.now })
    }

    @Test func loadIfNeededReloadsOnlyOnceTheValueIsOlderThanTheMaximumAge() async {
        let endpoint = endpoint(maximumAge: 60)
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v1") }
        #expect(endpoint.lastLoadDate == clock.now)
        clock.advance(by: 59)
        endpoint.loadIfNeeded()
        #expect(endpoint.state == .success("v1"))
        clock.advance(by: 1)
        endpoint.loadIfNeeded()
        #expect(endpoint.state == .loading)
        #expect(endpoint.lastValue == "v1")  // still reachable while the reload runs
        await waitUntil(endpoint) { $0 == .success("v2") }
        #expect(await transport.callCount == 2)
    }

    @Test func withoutAMaximumAgeAValueStaysFresh() async {
        let endpoint = endpoint(maximumAge: nil)
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v1") }
        clock.advance(by: 365 * 24 * 3600)
        endpoint.loadIfNeeded()
        #expect(endpoint.state == .success("v1"))
        #expect(await transport.callCount == 1)
    }

    @MainActor @Test func aNewObserverOfAStaleValueTriggersAReload() async {
        let endpoint = endpoint(maximumAge: 10)
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v1") }
        clock.advance(by: 11)
        let owner = Owner()
        var seen: [RequestState<String>] = []
        endpoint.observe(owner: owner) { seen.append($0) }
        await waitUntil(endpoint) { $0 == .success("v2") }
        await endpoint.waitForDeliveries()
        #expect(seen == [.success("v1"), .loading, .success("v2")])
    }

    @Test func theLastGoodValueSurvivesAFailedReload() async throws {
        let transport = StubTransport { call, request in
            if call == 2 { throw HTTPTransportError(.timedOut, request: request) }
            return try await numberedResponses(call, request)
        }
        let clock = self.clock
        let endpoint = StatefulEndpoint(
            endpoint: textEndpoint(), transport: transport, maximumAge: 5, now: { clock.now })
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v1") }
        clock.advance(by: 5)
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { if case .failure = $0 { true } else { false } }
        #expect(endpoint.lastValue == "v1")
        #expect(endpoint.lastLoadDate == Date(timeIntervalSinceReferenceDate: 0))
    }
}
