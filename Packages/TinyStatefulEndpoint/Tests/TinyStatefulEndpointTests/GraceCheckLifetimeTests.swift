import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyRequestState

@testable import TinyStatefulEndpoint

/// StatefulEndpoint.swift `load()` and `task`'s `didSet`: "the grace period's check of the load in flight, which ends
/// with it: no task sleeps on after a load".
@Suite(.timeLimit(.minutes(1))) struct GraceCheckLifetimeTests {
    /// The check ends with its load: once the load answered, no sleep of the grace period is left.
    @MainActor @Test func theGraceCheckEndsWithItsLoad() async throws {
        let clock = StandingClock()
        let transport = NumberingTransport(holding: [1])
        let endpoint = StatefulEndpoint(
            endpoint: textEndpoint(), transport: transport, cancelsUnobservedLoadAfter: .seconds(30), clock: clock)
        let owner = Owner()
        endpoint.observe(owner: owner) { _ in }
        let load = try #require(endpoint.task)
        await transport.waitForCalls(1)
        for _ in 0..<100 where clock.sleeping == 0 { await Task.yield() }
        #expect(clock.sleeping == 1)  // the check, sleeping while the load runs

        transport.release()
        await load.value
        for _ in 0..<100 where clock.sleeping > 0 { await Task.yield() }

        #expect(clock.sleeping == 0)
        clock.wakeAll()
        withExtendedLifetime(owner) {}
    }

    /// `load()` sets `task` (whose `didSet` cancels the check in `graceCheck`), then publishes `.loading`, and only
    /// then stores its own check in `graceCheck`. An observer that starts a load when it sees `.loading` (a screen
    /// that restarts a load it did not ask for) runs a whole `load()` in between: the inner load's check is stored
    /// first and then overwritten by the outer one's, for a load already cancelled. Nothing cancels the inner check
    /// when its load ends: it slept on for the grace period (here forever, on a clock that stands still). `.loading`
    /// is published last now, once the check is in place.
    @MainActor @Test func aLoadStartedWhileLoadingIsPublishedLeavesNoCheckSleeping() async throws {
        let clock = StandingClock()
        let transport = NumberingTransport(holding: [1, 2])
        let endpoint = StatefulEndpoint(
            endpoint: textEndpoint(), transport: transport, cancelsUnobservedLoadAfter: .seconds(30), clock: clock)
        let owner = Owner()
        var restarted = false
        endpoint.observe(owner: owner) { [weak endpoint] state in
            guard state == .loading, !restarted else { return }
            restarted = true
            endpoint?.load()
        }
        let load = try #require(endpoint.task)
        await transport.waitForCalls(1)
        transport.release()
        await load.value
        for _ in 0..<100 where clock.sleeping > 0 { await Task.yield() }

        #expect(restarted)
        // The replaced load sends nothing (cancelled before its request): the restarted one gets the first answer.
        #expect(endpoint.state == .success("v1"))
        #expect(transport.calls == 1)
        #expect(clock.sleeping == 0)
        clock.wakeAll()
        withExtendedLifetime(owner) {}
    }
}
