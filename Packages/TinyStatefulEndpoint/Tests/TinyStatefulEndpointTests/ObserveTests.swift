import Foundation
import Observation
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyRequestState

@testable import TinyStatefulEndpoint

/// Closures with owners: the current state at once, then every change synchronously, in registration order.
@Suite(.timeLimit(.minutes(1))) struct ObserveTests {
    @MainActor @Test func anObserverGetsTheCurrentStateThenEveryChangeInOrder() async {
        let mock = numberedMock()
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock)
        let owner = Owner()
        var seen: [RequestState<String>] = []
        endpoint.observe(owner: owner) { seen.append($0) }
        #expect(seen == [.idle, .loading])  // the current state, then the load the first observer started
        await waitUntil(endpoint) { $0 == .success("v1") }
        #expect(seen == [.idle, .loading, .success("v1")])
        #expect(mock.requests.count == 1)
    }

    @MainActor @Test func observingAfterALoadDeliversTheValueWithoutLoadingAgain() async {
        let mock = numberedMock()
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock)
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v1") }
        let owner = Owner()
        var seen: [RequestState<String>] = []
        endpoint.observe(owner: owner) { seen.append($0) }
        #expect(seen == [.success("v1")])
        #expect(mock.requests.count == 1)
    }

    @MainActor @Test func aChangeReachesEveryObserverBeforeTheCallThatMadeItReturnsInRegistrationOrder() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v1") }
        let owners = (0..<3).map { _ in Owner() }
        var log: [String] = []
        for (index, owner) in owners.enumerated() {
            MainActor.assertIsolated()
            endpoint.observe(owner: owner) { state in
                MainActor.assertIsolated()
                log.append("\(index): \(state)")
            }
        }
        log.removeAll()
        endpoint.clear()
        #expect(log == ["0: idle", "1: idle", "2: idle"])
    }

    @MainActor @Test func aChangeMadeInsideAnObserverReachesEveryoneAfterTheCurrentOne() async {
        // Only the first answer comes: the load the latecomer starts stays loading (it answered before the test went
        // on, once, under AddressSanitizer on a loaded machine).
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock(TestClock(opened: 1)))
        let owners = (0..<3).map { _ in Owner() }
        let received = owners.map { _ in Received() }
        endpoint.observe(owner: owners[0]) { [weak endpoint] state in
            received[0].states.append(state)
            if state == .success("v1") { endpoint?.clear() }  // re-entrant: the others see v1 first
        }
        var latecomer: [RequestState<String>] = []
        endpoint.observe(owner: owners[1]) { [weak endpoint] state in
            received[1].states.append(state)
            // Registered while `.idle` is still to be delivered to the others: it starts with `.idle`, once.
            if state == .success("v1") { endpoint?.observe(owner: owners[2]) { latecomer.append($0) } }
        }
        endpoint.observe(owner: owners[2]) { received[2].states.append($0) }
        await waitUntil(endpoint) { $0 == .success("v1") }
        #expect(received[0].states == [.idle, .loading, .success("v1"), .idle, .loading])
        #expect(received[1].states == [.loading, .success("v1"), .idle, .loading])
        #expect(received[2].states == [.loading, .success("v1"), .idle, .loading])
        #expect(latecomer == [.idle, .loading])  // `.idle` once, then the load its observe started
    }

    /// A delivery drops the states it has handed out in batches of 32 or more: 100 changes, each made by an observer from its call
    /// with the state before, reach every observer whole and in order across those drops.
    @MainActor @Test func aLongChainOfChangesMadeByObserversReachesEveryObserverInOrder() {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock(TestClock(opened: 0)))
        let (owners, received) = ((Owner(), Owner()), (Received(), Received()))
        endpoint.observe(owner: owners.0) { received.0.states.append($0) }  // and starts a load
        var changes = 0
        endpoint.observe(owner: owners.1) { [weak endpoint] state in
            received.1.states.append(state)
            guard changes < 100 else { return }
            changes += 1
            if state.isIdle { endpoint?.load() } else { endpoint?.clear() }  // the load waits for a clock never opened
        }
        let alternating = (0...100).map { $0.isMultiple(of: 2) ? RequestState<String>.loading : .idle }
        #expect(received.1.states == alternating)  // its first call, then the 100 changes made from its calls
        #expect(received.0.states == [.idle] + alternating)  // `.idle` in its own first call
        endpoint.clear()
    }

    /// Observers come and go in the middle of a long chain, across the batches a delivery drops: a token cancelled at
    /// the 40th change gets nothing after it, an observer registered then starts with that state and gets each later
    /// one once, and one call that makes 200 changes hands each to every observer once, in order. While the chain
    /// runs, the queue keeps few delivered states.
    @MainActor @Test func observersThatComeAndGoInALongChainSeeTheirPartInOrder() {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock(TestClock(opened: 0)))
        let (leaving, chained, joining) = (Received(), Received(), Received())
        let leaver = endpoint.observe { leaving.states.append($0) }  // and starts a load
        var (changes, queued, joiner) = (0, 0, ObservationToken?.none)
        let chainer = endpoint.observe { [weak endpoint] state in
            chained.states.append(state)
            guard let endpoint, changes < 100 else { return }
            queued = max(queued, endpoint.deliveries.count)
            if changes == 40 {
                leaver.cancel()
                joiner = endpoint.observe { joining.states.append($0) }
            }
            changes += 1
            if state.isIdle { endpoint.load() } else { endpoint.clear() }  // the load waits for a clock never opened
        }
        let states = (0...300).map { $0.isMultiple(of: 2) ? RequestState<String>.loading : .idle }
        #expect(chained.states == Array(states[...100]))  // its first call, then the 100 changes made from its calls
        #expect(leaving.states == [.idle] + states[...40])  // called before the chainer at the 40th
        #expect(joining.states == Array(states[40...100]))
        #expect(queued <= 32)  // 100 without batches
        let burst = endpoint.observe { [weak endpoint] _ in
            guard let endpoint, changes == 100 else { return }
            changes += 1
            for _ in 0..<100 {
                endpoint.clear()
                endpoint.load()
            }
        }
        #expect(chained.states == states)
        #expect(joining.states == Array(states[40...]))
        #expect(leaving.states == [.idle] + states[...40])
        endpoint.clear()
        withExtendedLifetime((chainer, joiner, burst)) {}
    }

    @MainActor @Test func aCancelledObservationGetsNothingMoreAndItsClosureIsReleased() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        let owner = Owner()
        var probe: Owner? = Owner()
        weak let weakProbe = probe
        var seen: [RequestState<String>] = []
        let token = endpoint.observe(owner: owner) { [probe] state in
            _ = probe
            seen.append(state)
        }
        probe = nil
        await waitUntil(endpoint) { $0 == .success("v1") }
        token.cancel()
        #expect(weakProbe == nil)  // at once, not at the next change
        token.cancel()  // a second cancel does nothing
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v2") }
        #expect(seen == [.idle, .loading, .success("v1")])
        #expect(weakProbe == nil)
        #expect(endpoint.observers.allSatisfy { $0.owner !== owner })
    }

    @MainActor @Test func cancellingDuringADeliveryStopsItAtOnceEvenForObserversNotYetCalled() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        let owner = Owner()
        var (first, second): ([RequestState<String>], [RequestState<String>]) = ([], [])
        var secondToken: ObservationToken?
        let firstToken = endpoint.observe(owner: owner) { state in
            first.append(state)
            if state == .loading { secondToken?.cancel() }
        }
        secondToken = endpoint.observe(owner: owner) { second.append($0) }
        endpoint.clear()
        endpoint.load()  // the first observer cancels the second before it is called
        #expect(first == [.idle, .loading, .idle, .loading])
        #expect(second == [.loading, .idle])
        firstToken.cancel()
        endpoint.clear()
        #expect(first == [.idle, .loading, .idle, .loading])
    }

    @MainActor @Test func aDeallocatedOwnerIsNeitherRetainedNorCalledAndItsClosureIsReleased() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
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
        #expect(seen == [.idle, .loading])
        #expect(weakProbe == nil)
        #expect(endpoint.observers.allSatisfy { $0.owner == nil })  // `waitUntil`'s ended when it returned
    }

    @MainActor @Test func theOwnerPassingObserveDoesNotKeepTheOwnerAlive() async {
        final class Screen {
            var rendered: [RequestState<String>] = []
        }
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        var screen: Screen? = Screen()
        weak let weakScreen = screen
        endpoint.observe(owner: screen ?? Screen()) { screen, state in screen.rendered.append(state) }
        await waitUntil(endpoint) { $0 == .success("v1") }
        #expect(screen?.rendered == [.idle, .loading, .success("v1")])
        screen = nil
        #expect(weakScreen == nil)
    }

    @MainActor @Test func anObservationWithoutAnOwnerLastsAsLongAsItsToken() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        var kept: [RequestState<String>] = []
        var dropped: [RequestState<String>] = []
        var probe: Owner? = Owner()
        weak let weakProbe = probe
        var token: ObservationToken? = endpoint.observe { kept.append($0) }
        _ = endpoint.observe { [probe] state in
            _ = probe
            dropped.append(state)
        }
        probe = nil
        await waitUntil(endpoint) { $0 == .success("v1") }
        #expect(kept == [.idle, .loading, .success("v1")])
        #expect(dropped == [.loading])  // its current state only: the token was released at once
        #expect(weakProbe == nil)
        #expect(token != nil)
        token = nil
        endpoint.clear()
        #expect(kept == [.idle, .loading, .success("v1")])
    }

    @MainActor @Test func anEndpointDoesNotOutliveItsUsers() async {
        var endpoint: StatefulEndpoint<String>? = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        weak let weakEndpoint = endpoint
        let owner = Owner()
        endpoint?.observe(owner: owner) { _ in }
        if let endpoint { await waitUntil(endpoint) { $0 == .success("v1") } }
        endpoint = nil
        #expect(weakEndpoint == nil)
    }
}

/// Observation: SwiftUI and `withObservationTracking` see `state` and `value` change.
@Suite(.timeLimit(.minutes(1))) struct ObservationTests {
    @MainActor @Test func readingTheStateTracksItsChanges() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        let changes = Locked(0)
        func track() {
            withObservationTracking {
                _ = endpoint.state
            } onChange: {
                changes.withLock { $0 += 1 }
            }
        }
        track()
        endpoint.load()
        #expect(changes.withLock { $0 } == 1)
        track()
        await waitUntil(endpoint) { $0 == .success("v1") }
        #expect(changes.withLock { $0 } == 2)
        track()
        endpoint.loadIfNeeded()  // nothing changes
        #expect(changes.withLock { $0 } == 2)
    }

    @MainActor @Test func readingTheValueTracksItToo() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        let changes = Locked(0)
        withObservationTracking {
            _ = endpoint.value
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v1") }
        #expect(changes.withLock { $0 } == 1)
        #expect(endpoint.value == "v1")
    }
}
