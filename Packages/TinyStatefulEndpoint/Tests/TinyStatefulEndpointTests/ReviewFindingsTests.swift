import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

/// A store holding the body `"stored"` for every request, whose restore waits until ``open()``.
final class GatedRestoreStore: ResponseStore {
    private let gate = Gate()

    /// Lets the restores return.
    func open() { gate.open() }

    func restore<Value>(
        for request: URLRequest, _ decode: @Sendable (Data, HTTPURLResponse) throws -> Value
    ) async -> Value? {
        await gate.wait()
        guard let url = request.url,
            let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil)
        else { return nil }
        return try? decode(Data("stored".utf8), response)
    }

    func save(_ body: Data, _ response: HTTPURLResponse, for request: URLRequest) async {}
}

/// Bugs found in review, fixed: each test failed before its fix.
@Suite(.timeLimit(.minutes(1))) struct StatefulEndpointReviewFindingsTests {
    /// The class doc: "a change made by an observer while it is called reaches everyone after the current one": in
    /// its first call too (made by `observe` itself, outside any delivery), whose change re-entered the observer.
    @MainActor @Test func aChangeMadeByAnObserverInItsFirstCallReachesItAfterThatCall() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v1") }
        let received = Received()
        var depth: [Int] = []
        var running = 0
        let owner = Owner()
        endpoint.observe(owner: owner) { state in
            depth.append(running)
            running += 1
            defer { running -= 1 }
            if state == .success("v1") { endpoint.clear() }  // e.g. a "log out" screen clearing what it finds
            received.states.append(state)
        }
        #expect(Array(received.states.prefix(2)) == [.success("v1"), .idle])  // was `[.idle, .success("v1")]`
        #expect(Array(depth.prefix(2)) == [0, 0])  // was `[0, 1]`: the second call ran inside the first
    }

    /// `cancelsUnobservedLoadAfter:`: "a load in flight is cancelled once this long has passed since its last
    /// observer went away … and the state goes back to the last value", whether the observer left before the stored
    /// value arrived or after. The check counted an observer as gone only while its entry was still in `observers`;
    /// once the stored value's delivery had dropped a departed observer, the empty list read as "never observed" (a
    /// prefetch) and the load was never cancelled (the `before` case; `after` was the control).
    @MainActor @Test(arguments: [true, false])
    func aLoadWhoseObserverLeftIsCancelledAfterTheGracePeriod(leavesBeforeTheStoredValue: Bool) async throws {
        let transport = NumberingTransport(holding: [1])
        let clock = TestClock(opened: 0)
        let store = GatedRestoreStore()
        let endpoint = StatefulEndpoint(
            endpoint: textEndpoint(), transport: transport, store: store, cancelsUnobservedLoadAfter: .seconds(2),
            clock: clock)
        defer { clock.open(.max / 2) }  // lets the grace period's last sleep end
        var owner: Owner? = Owner()
        endpoint.observe(owner: try #require(owner)) { _ in }
        let load = try #require(endpoint.task)
        if leavesBeforeTheStoredValue { owner = nil }  // the screen goes away while the stored value is being read
        store.open()
        await transport.waitForCalls(1)  // the stored value was offered; the load waits for its answer
        #expect(endpoint.state == .success("stored"))
        owner = nil
        await clock.waitForSleeps(1)
        clock.open()  // at the next check nobody observes it; two seconds later still nobody
        await clock.waitForSleeps(2)
        clock.open()
        await clock.waitForSleeps(3)  // the check ran and sleeps again

        #expect(load.isCancelled)
        transport.release()
        await load.value
        #expect(endpoint.state == .success("stored"))
    }

    /// `EndpointLoading.observe(endpoint:)` starts the activity when a load starts and stops it when the state leaves
    /// `.loading` or the token is cancelled, and also when the observing controller is released during a load (the
    /// observation's other end), which never stopped it: seen with any indicator that outlives the controller (a
    /// shared network indicator, a counter).
    @MainActor @Test func releasingTheObservingControllerWhileLoadingStopsTheActivity() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock(TestClock(opened: 0)))
        let indicator = FakeActivityIndicator()
        var controller: TodosController? = TodosController(transport: unreachableMock())
        weak let released = controller
        controller?.observe(endpoint: endpoint, activityIndicator: indicator) { controller, text in
            controller.texts.append(text)
        }
        #expect(indicator.events == ["start"])
        controller = nil  // the screen goes away while its load runs
        #expect(released == nil)
        endpoint.clear()  // the load ends, and the endpoint drops the ended observation, which stops the activity
        #expect(indicator.events == ["start", "stop"])  // was `["start"]`: the activity was never stopped
    }
}
