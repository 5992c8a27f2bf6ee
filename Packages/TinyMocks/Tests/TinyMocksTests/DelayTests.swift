import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport

@testable import TinyMocks

@Suite(.timeLimit(.minutes(1))) struct DelayTests {
    @Test func theMockDelayIsWaitedOnTheInjectedClock() async throws {
        let clock = RecordingClock()
        let mock = MockTransport(files: fixtures, delay: .milliseconds(800), clock: clock)
        _ = try await mock.send(request(.get, "https://h/users"))
        _ = try await mock.send(request(.get, "https://h/users/1"))
        #expect(clock.sleeps == [.milliseconds(800), .milliseconds(800)])
        #expect(clock.now.offset == .milliseconds(1600))
    }

    @Test func aRouteDelayOverridesTheMockDelay() async throws {
        let clock = RecordingClock()
        let mock = MockTransport(delay: .milliseconds(200), clock: clock)
        mock.register(.get, "/slow", delay: .seconds(2.5), .status(200))
        mock.register(.get, "/instant", delay: .zero, .status(200))
        mock.register(.get, "/default", .status(200))
        for path in ["/slow", "/instant", "/default"] {
            _ = try await mock.send(request(.get, "https://h" + path))
        }
        #expect(clock.sleeps == [.milliseconds(2500), .milliseconds(200)])
    }

    @Test func noDelayNeverSleeps() async throws {
        let clock = RecordingClock()
        let mock = MockTransport(files: fixtures, clock: clock)
        _ = try await mock.send(request(.get, "https://h/users"))
        #expect(clock.sleeps.isEmpty)
    }

    /// What `MockClock.immediate` did: a test clock skips an hour's delay (of a request allowed to wait that long),
    /// and says it was asked to wait it.
    @Test(.timeLimit(.minutes(1)))
    func aTestClockSkipsDelays() async throws {
        let clock = RecordingClock()
        let mock = MockTransport(files: fixtures, delay: .seconds(3600), clock: clock)
        var users = try request(.get, "https://h/users")
        users.timeoutInterval = 3600
        #expect(try await mock.send(users).1.statusCode == 200)
        #expect(clock.sleeps == [.seconds(3600)])
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingDuringTheDelayThrowsCancelled() async throws {
        let clock = RecordingClock(sleepsUntilCancelled: true)
        let mock = MockTransport(files: fixtures, delay: .seconds(30), clock: clock)
        let users = try request(.get, "https://h/users")
        let task = Task { try await mock.send(users) }
        var started = clock.started.makeAsyncIterator()
        #expect(await started.next() == .seconds(30))
        task.cancel()
        let error = try await #require(throws: HTTPTransportError.self) { try await task.value }
        #expect(error.code == .cancelled)
        #expect(error.request?.url == users.url)
    }

    @Test func anAlreadyCancelledTaskThrowsCancelledAtOnce() async throws {
        let mock = MockTransport(files: fixtures)
        let users = try request(.get, "https://h/users")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await mock.send(users)
        }
        await #expect(throws: HTTPTransportError.self) { try await task.value }
        #expect(mock.requests.count == 1)
    }

    /// tinyAPI's presets keep their delays; the removed preset functions are the initialiser with a delay.
    @Test func presetsMatchTheSeed() async throws {
        #expect(MockTinyAPIClient.demo.transport.delay == .milliseconds(800))
        #expect(MockTinyAPIClient.preview.transport.delay == .milliseconds(200))
        #expect(MockTinyAPIClient.testing.transport.delay == .zero)
        #expect(MockTinyAPIClient.demo.transport.delay > MockTinyAPIClient.preview.transport.delay)
        let clock = RecordingClock()
        let demo = MockTinyAPIClient(files: fixtures, delay: .milliseconds(800), clock: clock)
        _ = try await demo.requestData(UserEndpoint.list)
        #expect(clock.sleeps == [.milliseconds(800)])
        #expect(MockTransport(files: fixtures).delay == .zero)
    }

    /// Any `Duration` is a delay: zero and negative ones answer at once, the rest is waited exactly; for a request
    /// without a timeout (`timeoutInterval` 0), a huge one is waited about 95 years (`ContinuousClock` traps at 292).
    @Test(arguments: [
        (Duration.seconds(-1), [Duration]()), (.milliseconds(-5), []), (.zero, []),
        (.seconds(0.25), [.milliseconds(250)]), (.nanoseconds(5), [.nanoseconds(5)]),
        (.seconds(Int64.max), [.seconds(3e9)]),
    ])
    func delaysNeverTrap(delay: Duration, sleeps: [Duration]) async throws {
        let clock = RecordingClock()
        let mock = MockTransport(files: fixtures, delay: delay, clock: clock)
        var users = try request(.get, "https://h/users")
        users.timeoutInterval = 0
        #expect(try await mock.send(users).1.statusCode == 200)
        #expect(clock.sleeps == sleeps)
    }

    /// A delay longer than the request's `timeoutInterval` (60 s unless set) is waited that long and then fails as
    /// `timedOut`, as a slow server does on a live transport; one of exactly the timeout answers.
    @Test(arguments: [(61.0, nil, true), (1, 1, false), (1.5, 1, true)] as [(Double, Double?, Bool)])
    func aDelayLongerThanTheTimeoutTimesOut(delay: Double, timeout: Double?, timesOut: Bool) async throws {
        let clock = RecordingClock()
        let mock = MockTransport(files: fixtures, delay: .seconds(delay), clock: clock)
        var users = try request(.get, "https://h/users")
        if let timeout { users.timeoutInterval = timeout }
        do {
            _ = try await mock.send(users)
            #expect(!timesOut)
        } catch let error as HTTPTransportError {
            #expect(timesOut && error.code == .timedOut)
        }
        #expect(clock.sleeps == [.seconds(min(delay, users.timeoutInterval))])
    }
}
