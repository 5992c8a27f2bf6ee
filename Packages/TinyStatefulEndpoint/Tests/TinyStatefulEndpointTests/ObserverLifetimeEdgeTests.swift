import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyRequestState

@testable import TinyStatefulEndpoint

/// Edges of an observation's lifetime: what the endpoint keeps of observations whose owners went, and the grace
/// period after which a load nobody observes any more is cancelled.
@Suite(.timeLimit(.minutes(1))) struct ObserverLifetimeEdgeTests {
    /// StatefulEndpoint+Observe.swift `add` (its first call; `greetNewest()` before): a new observation's first call is a
    /// delivery to that observation only, so it never dropped the observations whose owners went; they were dropped
    /// (their closures released, their end hooks called) only by a delivery to every observer, a change of state. A
    /// value that stays fresh (no `maximumAge`, no `Cache-Control`: the default) never changes, so every screen that
    /// observed it and went away stayed in `observers`, for as long as the endpoint lived. A new observation drops them
    /// now once the list has doubled since the last time (amortized: a fan-out of many observers walks no list per
    /// observation), so at most 16 ended ones, or as many as live ones, are kept.
    @MainActor @Test func observationsWhoseOwnersWentDoNotPileUpWhileTheValueStaysFresh() async {
        let mock = numberedMock()
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock)
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v1") }
        var captures: [() -> Owner?] = []
        for _ in 0..<100 {  // a detail screen opened and closed a hundred times
            let screen = Owner()
            let viewModel = Owner()  // what the screen's closure captures besides the screen
            captures.append { [weak viewModel] in viewModel }
            endpoint.observe(owner: screen) { [viewModel] _, _ in _ = viewModel }
        }
        #expect(mock.requests.count == 1)  // the value stayed fresh: no load, no change
        #expect(endpoint.state == .success("v1"))

        #expect(endpoint.observers.count <= 16, "\(endpoint.observers.count) observations kept")
        #expect(captures.filter { $0() != nil }.count <= 16)
        #expect(captures.prefix(80).allSatisfy { $0() == nil })
        endpoint.load()  // a change: every ended observation is dropped
        #expect(endpoint.observers.isEmpty)
        #expect(captures.allSatisfy { $0() == nil })
    }

    /// StatefulEndpoint.swift `init` and `load()`: `cancelsUnobservedLoadAfter:` was kept as given above its 0.1 s
    /// minimum, and each check sleeps that long on the clock, `ContinuousClock` by default, whose sleep traps when the
    /// deadline has more seconds than an `Int64` holds ("Not enough bits to represent the passed value"). A grace
    /// period of `.seconds(.max)` ("never, in effect") killed the app at the first observed load. It is at most about
    /// 95 years now, and the check ends with its load.
    @Test func aGracePeriodOfSecondsMaxDoesNotTrap() async {
        // In process: a trap stops the whole test run, loudly (exit tests misbehave under the sanitizers).
        await ObserverLifetimeEdgeTests.loadObserved(cancellingUnobservedLoadAfter: .seconds(Int64.max))
    }

    /// Observes an endpoint with the grace period `grace`, on the default clock, while its load waits; then lets the
    /// load end.
    @MainActor static func loadObserved(cancellingUnobservedLoadAfter grace: Duration) async {
        let transport = NumberingTransport(holding: [1])
        let endpoint = StatefulEndpoint(
            endpoint: textEndpoint(), transport: transport, cancelsUnobservedLoadAfter: grace)
        let owner = Owner()
        endpoint.observe(owner: owner) { _ in }
        let load = endpoint.task
        await transport.waitForCalls(1)
        // The grace period's first check started its sleep on the main actor right after the load started; a trap
        // there ends the process at once: this wait only gives it the time to happen.
        try? await Task.sleep(for: .milliseconds(300))
        transport.release()
        await load?.value
        #expect(endpoint.state == .success("v1"))
        withExtendedLifetime(owner) {}
    }
}
