import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyMocks

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct DelayTests {
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    @Test func theMockDelayIsWaitedOnTheInjectedClock() async throws {
        let clock = RecordingClock()
        let mock = MockTransport(files: fixtures, delay: .demo, clock: MockClock(clock))
        _ = try await mock.send(request(.get, "https://h/users"))
        _ = try await mock.send(request(.get, "https://h/users/1"))
        #expect(clock.sleeps == [.milliseconds(800), .milliseconds(800)])
        #expect(clock.now.offset == .milliseconds(1600))
    }

    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    @Test func aRouteDelayOverridesTheMockDelay() async throws {
        let clock = RecordingClock()
        let mock = MockTransport(delay: .preview, clock: MockClock(clock))
        mock.register(.get, "/slow", delay: .seconds(2.5), .status(200))
        mock.register(.get, "/instant", delay: .zero, .status(200))
        mock.register(.get, "/default", .status(200))
        for path in ["/slow", "/instant", "/default"] {
            _ = try await mock.send(request(.get, "https://h" + path))
        }
        #expect(clock.sleeps == [.milliseconds(2500), .milliseconds(200)])
    }

    @Test func noDelayNeverSleeps() async throws {
        let mock = MockTransport(files: fixtures, clock: MockClock { _ in Issue.record("slept") })
        _ = try await mock.send(request(.get, "https://h/users"))
    }

    @Test func theImmediateClockSkipsDelays() async throws {
        let mock = MockTransport(files: fixtures, delay: .seconds(3600), clock: .immediate)
        #expect(try await mock.send(request(.get, "https://h/users")).1.statusCode == 200)
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingDuringTheDelayThrowsCancelled() async throws {
        let (started, continuation) = AsyncStream.makeStream(of: Void.self)
        let clock = MockClock { nanoseconds in
            continuation.yield()
            try await Task.sleep(nanoseconds: nanoseconds)
        }
        let mock = MockTransport(files: fixtures, delay: .seconds(3600), clock: clock)
        let users = try request(.get, "https://h/users")
        let task = Task { try await mock.send(users) }
        var iterator = started.makeAsyncIterator()
        await iterator.next()
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("the cancelled request answered")
        } catch let error as HTTPTransportError {
            #expect(error.code == .cancelled)
            #expect(error.request?.url == users.url)
        }
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

    @Test func presetsMatchTheSeed() {
        #expect(MockDelay.demo == .milliseconds(800))
        #expect(MockDelay.preview == .milliseconds(200))
        #expect(MockDelay.testing == .zero)
        #expect(MockDelay.demo > MockDelay.preview)
        #expect(MockTransport.demo(files: fixtures).delay == .demo)
        #expect(MockTransport.preview(files: fixtures).delay == .preview)
        #expect(MockTransport.testing(files: fixtures).delay == .zero)
    }

    @Test(arguments: [
        (MockDelay.seconds(.nan), UInt64(0)), (.seconds(-1), 0), (.seconds(.infinity), .max), (.seconds(1e30), .max),
        (.seconds(0.25), 250_000_000), (.milliseconds(-5), 0), (.milliseconds(.max), .max),
    ])
    func delaysNeverTrap(delay: MockDelay, nanoseconds: UInt64) {
        #expect(delay.nanoseconds == nanoseconds)
    }

    @Test func durationsBecomeDelays() {
        guard #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) else { return }
        #expect(MockDelay(.milliseconds(1500)) == .milliseconds(1500))
        #expect(MockDelay(.seconds(-3)) == .zero)
    }

    @Test func delaysDescribeThemselves() {
        #expect(MockDelay.demo.description == "800 ms")
        #expect(MockDelay(nanoseconds: 5).description == "5 ns")
    }
}
