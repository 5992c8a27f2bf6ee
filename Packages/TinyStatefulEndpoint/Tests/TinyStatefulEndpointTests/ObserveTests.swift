import Foundation
import Testing
import TinyRequestState

@testable import TinyStatefulEndpoint

@MainActor @Suite struct ObserveTests {
    let transport = StubTransport(numberedResponses)

    @Test func observerGetsCurrentStateThenEveryChangeInOrder() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        let owner = Owner()
        var seen: [RequestState<String>] = []
        endpoint.observe(owner: owner) { seen.append($0) }
        #expect(seen == [.idle])
        await waitUntil(endpoint) { $0 == .success("v1") }
        await endpoint.waitForDeliveries()
        #expect(seen == [.idle, .loading, .success("v1")])
        #expect(await transport.callCount == 1)
    }

    @Test func observeCurrentFalseSkipsTheCurrentState() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        let owner = Owner()
        var seen: [RequestState<String>] = []
        endpoint.observe(owner: owner, observeCurrent: false) { seen.append($0) }
        #expect(seen.isEmpty)
        await waitUntil(endpoint) { $0 == .success("v1") }
        await endpoint.waitForDeliveries()
        #expect(seen == [.loading, .success("v1")])
    }

    @Test func observingAfterALoadDeliversTheValueWithoutLoadingAgain() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v1") }
        let owner = Owner()
        var seen: [RequestState<String>] = []
        endpoint.observe(owner: owner) { seen.append($0) }
        #expect(seen == [.success("v1")])
        #expect(await transport.callCount == 1)
    }

    @Test func removedByTokenGetsNothingMore() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        let owner = Owner()
        var seen: [RequestState<String>] = []
        let token = endpoint.observe(owner: owner) { seen.append($0) }
        await waitUntil(endpoint) { $0 == .success("v1") }
        await endpoint.waitForDeliveries()
        token.cancel()
        endpoint.reload()
        await waitUntil(endpoint) { $0 == .success("v2") }
        await endpoint.waitForDeliveries()
        #expect(seen == [.idle, .loading, .success("v1")])
        #expect(endpoint.observerCount == 0)
    }

    @Test func removeObserverWithTheTokenOfAnotherEndpointDoesNothing() {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        let other = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        let owner = Owner()
        endpoint.observe(owner: owner) { _ in }
        let foreign = other.observe(owner: owner) { _ in }
        endpoint.removeObserver(foreign)
        #expect(endpoint.observerCount == 1)
        other.removeObserver(foreign)
        #expect(other.observerCount == 0)
    }

    @Test func removeObserversOfAnOwnerKeepsTheOthers() async {
        let gate = Gate()
        let transport = StubTransport { call, request in
            await gate.wait()  // every observer registers before the answer
            return try await numberedResponses(call, request)
        }
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        let (first, second) = (Owner(), Owner())
        var firstSeen: [RequestState<String>] = []
        var secondSeen: [RequestState<String>] = []
        endpoint.observe(owner: first) { firstSeen.append($0) }
        endpoint.observe(owner: first) { firstSeen.append($0) }
        endpoint.observe(owner: second) { secondSeen.append($0) }
        endpoint.removeObservers(owner: first)
        #expect(endpoint.observerCount == 1)
        await gate.open()
        await waitUntil(endpoint) { $0 == .success("v1") }
        await endpoint.waitForDeliveries()
        // The first observe started the load, so the later ones began with `.loading`; removed before the pending
        // deliveries ran on the main actor, the first owner's observers get none of them.
        #expect(firstSeen == [.idle, .loading])
        #expect(secondSeen == [.loading, .success("v1")])
    }

    @Test func removingItselfInsideTheCallbackStopsDeliveryAtOnce() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        let owner = Owner()
        var seen: [RequestState<String>] = []
        endpoint.observe(owner: owner, observeCurrent: false) { [weak endpoint] state in
            seen.append(state)
            endpoint?.removeObservers(owner: owner)
        }
        await waitUntil(endpoint) { $0 == .success("v1") }
        await endpoint.waitForDeliveries()
        #expect(seen == [.loading])
    }

    @Test func deallocatedOwnerIsDroppedAndItsClosureReleased() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        var owner: Owner? = Owner()
        var probe: Owner? = Owner()
        weak let weakOwner = owner
        weak let weakProbe = probe
        var seen: [RequestState<String>] = []
        endpoint.observe(owner: owner ?? Owner()) { [probe] state in
            _ = probe
            seen.append(state)
        }
        probe = nil
        owner = nil
        #expect(weakOwner == nil)
        await waitUntil(endpoint) { $0 == .success("v1") }
        await endpoint.waitForDeliveries()
        #expect(seen == [.idle])
        #expect(weakProbe == nil)
        #expect(endpoint.observerCount == 0)
    }

    @Test func ownerPassingObserveDoesNotKeepTheOwnerAlive() async {
        final class Screen {
            var rendered: [RequestState<String>] = []
        }
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        var screen: Screen? = Screen()
        weak let weakScreen = screen
        endpoint.observe(owner: screen ?? Screen()) { screen, state in screen.rendered.append(state) }
        await waitUntil(endpoint) { $0 == .success("v1") }
        await endpoint.waitForDeliveries()
        #expect(screen?.rendered == [.idle, .loading, .success("v1")])
        screen = nil
        #expect(weakScreen == nil)
        #expect(endpoint.observerCount == 0)
    }

    @Test func observersAreCalledOnTheMainActor() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        let owner = Owner()
        var calls = 0
        endpoint.observe(owner: owner) { _ in
            MainActor.assertIsolated()
            calls += 1
        }
        await waitUntil(endpoint) { $0 == .success("v1") }
        await endpoint.waitForDeliveries()
        #expect(calls == 3)
    }

    @Test func anEndpointDoesNotOutliveItsUsers() async {
        var endpoint: StatefulEndpoint<String>? = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        weak let weakEndpoint = endpoint
        let owner = Owner()
        endpoint?.observe(owner: owner) { _ in }
        if let endpoint { await waitUntil(endpoint) { $0 == .success("v1") } }
        await endpoint?.waitForDeliveries()
        endpoint = nil
        #expect(weakEndpoint == nil)
    }
}
