import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

/// The states UI code sees, as it sees them: re-entrant observers (cancelling, releasing, clearing, loading from
/// inside a call), `states` left and iterated again, the endpoint released by one of its observers, and the activity
/// `EndpointLoading` shows while a stored value is revalidated.
@Suite(.timeLimit(.minutes(1))) struct ObservedStateSequenceEdgeTests {
    /// EndpointLoading.swift `observe(endpoint:)` "shows activity while it loads", but it read only `state.isLoading`;
    /// with a store, the load in flight offers the stored value (StatefulEndpoint.swift `load()`, `offer(_:)`), so
    /// the state becomes a stale `.success` while the network request still runs: the spinner went off for the whole
    /// request, and a screen that joined the load then never showed one.
    @MainActor @Test func theActivityStaysOnWhileTheLoadRevalidatingAStoredValueRuns() async throws {
        let transport = NumberingTransport(holding: [1])
        let store = GatedRestoreStore()
        store.open()
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport, store: store)
        let controller = TodosController(transport: unreachableMock())
        let indicator = FakeActivityIndicator()
        controller.observe(endpoint: endpoint, activityIndicator: indicator) { controller, text in
            controller.texts.append(text)
        }
        let load = try #require(endpoint.task)
        await transport.waitForCalls(1)  // the stored value was offered; the load waits for its answer
        #expect(controller.texts == ["stored"])
        let joining = FakeActivityIndicator()
        controller.observe(endpoint: endpoint, activityIndicator: joining) { _, _ in }  // a second screen joins it

        #expect(indicator.isShowing, "\(indicator.events)")
        #expect(joining.isShowing, "\(joining.events)")
        transport.release()
        await load.value
        #expect(controller.texts == ["stored", "v1"])
        #expect(!indicator.isShowing && !joining.isShowing)
    }

    /// An observer that cancels its own token and then starts a load, in the same call: it is not called again, and
    /// the others see the state it was called with, then the load.
    @MainActor @Test func anObserverThatCancelsItselfAndLoadsInOneCallSeesNothingMore() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v1") }
        let owner = Owner()
        var (first, second): ([RequestState<String>], [RequestState<String>]) = ([], [])
        var token: ObservationToken?
        token = endpoint.observe(owner: owner) { [weak endpoint] state in
            first.append(state)
            guard state == .idle else { return }
            token?.cancel()
            endpoint?.load()
        }
        endpoint.observe(owner: owner) { second.append($0) }
        endpoint.clear()
        await waitUntil(endpoint) { $0 == .success("v2") }

        #expect(first == [.success("v1"), .idle])
        #expect(second == [.success("v1"), .idle, .loading, .success("v2")])
    }

    /// Owners released from inside a delivery: its own (the call runs to its end, and that is its last) and a later
    /// observer's (not called for the state being delivered, though it was registered when the state changed). The
    /// others get every state; the closures are released by the next change.
    @MainActor @Test func ownersReleasedDuringADeliveryEndTheirObservationsThere() async throws {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v1") }
        var owners: [Owner?] = (0..<4).map { _ in Owner() }
        var probe: Owner? = Owner()
        weak let weakProbe = probe
        let received = owners.map { _ in Received() }
        for index in owners.indices {
            endpoint.observe(owner: try #require(owners[index])) { [probe] state in
                _ = probe
                received[index].states.append(state)
                // The second releases its own owner and the third's.
                if index == 1, state == .idle { (owners[1], owners[2]) = (nil, nil) }
            }
        }
        probe = nil
        endpoint.clear()
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v2") }

        let everything: [RequestState<String>] = [.success("v1"), .idle, .loading, .success("v2")]
        #expect(received.map(\.states) == [everything, [.success("v1"), .idle], [.success("v1")], everything])
        #expect(endpoint.observers.filter { $0.owner != nil }.count == 2)
        owners = []
        endpoint.clear()
        #expect(weakProbe == nil)
    }

    /// A `states` loop left and another begun: the second starts with the state of the moment, the first's
    /// observation is over and dropped at the next change.
    @MainActor @Test func aStatesLoopLeftAndAnotherBegunEachStartWithTheStateOfTheirMoment() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        endpoint.load()
        var firstLoop: [RequestState<String>] = []
        for await state in endpoint.states {
            firstLoop.append(state)
            if state.isSuccess { break }
        }
        endpoint.load()
        var secondLoop: [RequestState<String>] = []
        for await state in endpoint.states {
            secondLoop.append(state)
            if state.isSuccess { break }
        }

        #expect(firstLoop == [.loading, .success("v1")])
        #expect(secondLoop == [.loading, .success("v2")])
        endpoint.clear()
        #expect(endpoint.observers.isEmpty)
    }

    /// An observer registered during a delivery, whose first call starts a load: it starts with the state being
    /// delivered (the newest); each observer sees that state, then `.loading` once (its observation joins the load it
    /// started), in order.
    @MainActor @Test func aLatecomerWhoseFirstCallLoadsReachesEveryoneInOrder() async {
        let clock = TestClock(opened: 2)  // the third load waits
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock(clock))
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v1") }
        let owner = Owner()
        var (first, second, latecomer): ([RequestState<String>], [RequestState<String>], [RequestState<String>]) =
            ([], [], [])
        endpoint.observe(owner: owner) { [weak endpoint] state in
            first.append(state)
            guard state == .success("v2") else { return }
            endpoint?.observe(owner: owner) { [weak endpoint] state in
                latecomer.append(state)
                if state.isSuccess { endpoint?.load() }
            }
        }
        endpoint.observe(owner: owner) { second.append($0) }
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v2") }

        let expected: [RequestState<String>] = [.success("v1"), .loading, .success("v2"), .loading]
        #expect(first == expected)
        #expect(second == expected)
        #expect(latecomer == [.success("v2"), .loading])
        await clock.waitForSleeps(3)
        #expect(endpoint.state == .loading)
        endpoint.clear()
    }

    /// Two failures in a row with the same message: the second is a change too (only `.idle` and `.loading` repeat
    /// without one), so a screen presents the retry's failure.
    @MainActor @Test func aSecondFailureWithTheSameMessageReachesTheObservers() async {
        let mock = MockTransport()
        mock.register(
            .get, "/text", .failure(URLError(.cannotConnectToHost)), .failure(URLError(.cannotConnectToHost)))
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock)
        let controller = TodosController(transport: unreachableMock())
        controller.observe(endpoint: endpoint) { controller, text in controller.texts.append(text) }
        await waitUntil(endpoint) { $0.isFailure }
        endpoint.load()
        await waitUntil(endpoint) { $0.isFailure }

        #expect(controller.hooks.errors.count == 2)
        #expect(Set(controller.hooks.errors).count == 1)
        #expect(controller.hooks.indicator.events == ["start", "stop", "start", "stop"])
    }

    /// The screen that alone holds the endpoint goes while its observer is called with the answer: every other
    /// observer still gets the answer, a `states` sequence gets it and then ends, and the endpoint is released.
    @MainActor @Test func anEndpointReleasedByItsObserverDuringTheAnswerStillDeliversItAndEnds() async throws {
        final class Screen {
            let todos: StatefulEndpoint<String>
            init(_ todos: StatefulEndpoint<String>) { self.todos = todos }
        }
        let transport = NumberingTransport(holding: [1])
        var screen: Screen? = Screen(StatefulEndpoint(endpoint: textEndpoint(), transport: transport))
        let (other, endpoint) = (Owner(), try #require(screen?.todos))
        weak let released = endpoint
        var (seen, otherSeen): ([RequestState<String>], [RequestState<String>]) = ([], [])
        endpoint.observe(owner: try #require(screen)) { state in
            seen.append(state)
            if state.isSuccess { screen = nil }
        }
        endpoint.observe(owner: other) { otherSeen.append($0) }
        let (states, load) = (endpoint.states, try #require(endpoint.task))
        _ = consume endpoint
        transport.release()
        await load.value
        var streamed: [RequestState<String>] = []
        for await state in states { streamed.append(state) }  // ends: the endpoint is gone

        #expect(seen == [.idle, .loading, .success("v1")])
        #expect(otherSeen == [.loading, .success("v1")])
        #expect(streamed == [.loading, .success("v1")])
        #expect(released == nil)
    }

    /// StatefulEndpoint+Observe.swift `add`: `observe` "starts a load if there is no usable value yet", but decided
    /// it only after the first call. An observer whose first call clears the fresh value it is handed (a sign-out
    /// screen dropping what it finds) got it loaded again by its own `observe`: one more request, and the value back
    /// (the same `clear()` in any later call was not undone).
    @MainActor @Test func aFirstCallThatClearsIsNotUndoneByTheObservationsOwnLoad() async {
        let mock = numberedMock()
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock)
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v1") }
        let owner = Owner()
        var seen: [RequestState<String>] = []
        endpoint.observe(owner: owner) { [weak endpoint] state in
            seen.append(state)
            if state == .success("v1") { endpoint?.clear() }
        }
        let reload = endpoint.task

        #expect(seen == [.success("v1"), .idle])
        #expect(endpoint.state == .idle)
        #expect(reload == nil)
        await reload?.value
        #expect(mock.requests.count == 1)
        endpoint.clear()
    }
}
