import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyRequestState

@testable import TinyStatefulEndpoint

/// A clock on which time stands still and every sleep waits until its task is cancelled; it counts the sleeps
/// waiting now.
private final class SleeperCountingClock: Clock, Sendable {
    typealias Instant = TestClock.Instant

    private let state = Locked((sleeping: 0, waiting: [Int: CheckedContinuation<Void, Never>](), next: 0))

    var now: Instant { Instant(offset: .zero) }
    var minimumResolution: Duration { .zero }

    /// How many sleeps are waiting now.
    var sleeping: Int { state.withLock { $0.sleeping } }

    /// Ends every sleep waiting now, so that no task outlives the test.
    func wakeAll() {
        let waiting = state.withLock { state in
            defer { state.waiting = [:] }
            return state.waiting.values
        }
        for continuation in waiting { continuation.resume() }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let number = state.withLock { state in
            state.next += 1
            state.sleeping += 1
            return state.next
        }
        defer { state.withLock { $0.sleeping -= 1 } }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let cancelled = state.withLock { state in
                    if Task.isCancelled { return true }
                    state.waiting[number] = continuation
                    return false
                }
                if cancelled { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: number) }?.resume()
        }
        try Task.checkCancellation()
    }
}

/// StatefulEndpoint.swift `load()` and `task`'s `didSet`: "the grace period's check of the load in flight, which ends
/// with it: no task sleeps on after a load".
@Suite(.timeLimit(.minutes(1))) struct GraceCheckLifetimeTests {
    /// The check ends with its load: once the load answered, no sleep of the grace period is left.
    @MainActor @Test func theGraceCheckEndsWithItsLoad() async throws {
        let clock = SleeperCountingClock()
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
        let clock = SleeperCountingClock()
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
        #expect(endpoint.state == .success("v2"))
        #expect(clock.sleeping == 0)
        clock.wakeAll()
        withExtendedLifetime(owner) {}
    }
}
