import Foundation
import Testing
import TinyRequestState

@testable import TinyStatefulEndpoint

/// A synchronous observer that forwards every state into an `AsyncStream`, so a test can await them in order.
func forwardingObserver<A: Sendable>() -> (
    states: AsyncStream<RequestState<A>>, observer: @Sendable (RequestState<A>) -> Void
) {
    var continuation: AsyncStream<RequestState<A>>.Continuation?
    let states = AsyncStream<RequestState<A>>(bufferingPolicy: .unbounded) { continuation = $0 }
    return (states, { [continuation] state in continuation?.yield(state) })
}

extension AsyncStream {
    /// The next `count` elements.
    func prefix(_ count: Int) async -> [Element] {
        var taken: [Element] = []
        for await element in self {
            taken.append(element)
            if taken.count == count { break }
        }
        return taken
    }
}

@Suite struct SynchronousObserveTests {
    let transport = StubTransport(numberedResponses)

    @Test func theCurrentStateArrivesBeforeObserveReturnsThenEveryChangeInOrder() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        let owner = Owner()
        let seen = Collected<RequestState<String>>()
        let (states, forward) = forwardingObserver() as (AsyncStream<RequestState<String>>, _)
        endpoint.observeSynchronously(owner: owner) { state in
            seen.append(state)
            forward(state)
        }
        #expect(seen.values.first == .idle)
        #expect(await states.prefix(3) == [.idle, .loading, .success("v1")])
        #expect(await transport.callCount == 1)
    }

    @Test func aStateChangeIsDeliveredBeforeTheCallThatMadeItReturns() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v1") }
        let owner = Owner()
        let seen = Collected<RequestState<String>>()
        endpoint.observeSynchronously(owner: owner) { seen.append($0) }
        #expect(seen.values == [.success("v1")])
        endpoint.clear()
        #expect(seen.values == [.success("v1"), .idle])
    }

    @Test func anObserverMayChangeTheStateFromInsideItsCall() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        let owner = Owner()
        let (states, forward) = forwardingObserver() as (AsyncStream<RequestState<String>>, _)
        endpoint.observeSynchronously(owner: owner) { [weak endpoint] state in
            forward(state)
            if state == .success("v1") { endpoint?.reload() }  // re-entrant: delivered after this call returns
        }
        #expect(await states.prefix(5) == [.idle, .loading, .success("v1"), .loading, .success("v2")])
    }

    @Test func aRemovedObserverGetsNothingMore() async {
        let gate = Gate()
        let transport = StubTransport { call, request in
            await gate.wait()
            return try await numberedResponses(call, request)
        }
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        let owner = Owner()
        let seen = Collected<RequestState<String>>()
        let token = endpoint.observeSynchronously(owner: owner, observeCurrent: false) { seen.append($0) }
        #expect(seen.values == [.loading])  // the load its observe started
        endpoint.removeObserver(token)
        await gate.open()
        await waitUntil(endpoint) { $0 == .success("v1") }
        endpoint.clear()
        #expect(seen.values == [.loading])
        #expect(endpoint.observerCount == 0)
    }

    @Test func aDeallocatedOwnerIsDroppedWithItsClosure() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        var owner: Owner? = Owner()
        var probe: Owner? = Owner()
        weak let weakProbe = probe
        endpoint.observeSynchronously(owner: owner ?? Owner()) { [probe] _ in _ = probe }
        probe = nil
        owner = nil
        await waitUntil(endpoint) { $0 == .success("v1") }
        endpoint.clear()
        #expect(weakProbe == nil)
        #expect(endpoint.observerCount == 0)
    }
}
