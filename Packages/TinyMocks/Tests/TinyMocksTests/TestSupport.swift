import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyMocks

/// The seed's model.
struct User: Codable, Equatable, Sendable {
    let id: Int
    let name: String
    let email: String
}

/// The JSON files of this test target (`resources: [.copy("Fixtures")]`).
let fixtures = MockFiles.bundle(.module, subdirectory: "Fixtures")

/// A request for `method` on `url`.
func request(_ method: HTTPMethod, _ url: String, body: Data? = nil) throws -> URLRequest {
    var request = URLRequest(url: try #require(URL(string: url)))
    request.httpMethod = method.rawValue
    request.httpBody = body
    return request
}

/// The `MockError` inside the `HTTPTransportError` a mock threw, recording an issue when it is something else.
func mockError(
    _ transport: MockTransport, _ request: URLRequest, sourceLocation: SourceLocation = #_sourceLocation
) async -> MockError? {
    guard let error = await transportError(transport, request, sourceLocation: sourceLocation) else { return nil }
    #expect(error.underlyingError is MockError, "expected a MockError, got \(error)", sourceLocation: sourceLocation)
    return error.underlyingError as? MockError
}

/// The `HTTPTransportError` a send threw, recording an issue when it succeeded or threw something else.
func transportError(
    _ transport: some HTTPTransport, _ request: URLRequest, sourceLocation: SourceLocation = #_sourceLocation
) async -> HTTPTransportError? {
    await #expect(throws: HTTPTransportError.self, sourceLocation: sourceLocation) { try await transport.send(request) }
}

/// A test clock: every sleep moves `now` to its deadline, is recorded, and returns at once (still noticing
/// cancellation), unless the clock was made with `sleepsUntilCancelled`: then it waits until its task is cancelled,
/// after yielding the duration to ``started``.
final class RecordingClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let state = Locked((now: Instant(offset: .zero), sleeps: [Duration]()))
    private let sleepsUntilCancelled: Bool
    private let startedSleeping: AsyncStream<Duration>.Continuation
    /// The duration of each sleep, as it starts.
    let started: AsyncStream<Duration>

    init(sleepsUntilCancelled: Bool = false) {
        self.sleepsUntilCancelled = sleepsUntilCancelled
        (started, startedSleeping) = AsyncStream.makeStream(of: Duration.self)
    }

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }
    /// The durations slept, in order.
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        let duration = state.withLock { state in
            let duration = state.now.duration(to: deadline)
            state.sleeps.append(duration)
            state.now = max(state.now, deadline)
            return duration
        }
        startedSleeping.yield(duration)
        while sleepsUntilCancelled { try await Task.sleep(for: .seconds(3600)) }
    }
}

/// A clock whose first `blocking` sleeps last until their task is cancelled (each yielding to ``started`` when it
/// begins) and whose later sleeps return at once.
final class BlockingClock: Clock, Sendable {
    typealias Instant = RecordingClock.Instant
    private let blocking: Int
    private let sleeps = Locked(0)
    private let continuation: AsyncStream<Void>.Continuation
    /// One element when each blocking sleep starts.
    let started: AsyncStream<Void>

    init(blocking: Int) {
        self.blocking = blocking
        (started, continuation) = AsyncStream.makeStream(of: Void.self)
    }

    var now: Instant { Instant(offset: .zero) }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        let number = sleeps.withLock { count in
            count += 1
            return count
        }
        guard number <= blocking else { return }
        continuation.yield()
        while true { try await Task.sleep(for: .seconds(3600)) }
    }
}

/// A clock whose sleeps wait until they are released by number (the first sleep is 1), or their task is
/// cancelled; a sleep past `releasedFrom` returns at once.
final class NumberedGateClock: Clock, Sendable {
    typealias Instant = ContinuousClock.Instant
    private let state = Locked((sleeps: 0, released: Set<Int>()))
    private let releasedFrom: Int
    /// The number of each sleep as it starts.
    let started: AsyncStream<Int>
    private let continuation: AsyncStream<Int>.Continuation

    init(releasedFrom: Int) {
        self.releasedFrom = releasedFrom
        (started, continuation) = AsyncStream.makeStream(of: Int.self)
    }

    var now: Instant { ContinuousClock.now }
    var minimumResolution: Duration { .zero }

    func release(_ number: Int) { state.withLock { _ = $0.released.insert(number) } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        let number = state.withLock { state in
            state.sleeps += 1
            return state.sleeps
        }
        continuation.yield(number)
        guard number < releasedFrom else { return }
        while !state.withLock({ $0.released.contains(number) }) { try await Task.sleep(for: .milliseconds(1)) }
    }
}

/// The route `GET /flaky` answering `.status(503), .status(200)`, each after a 1 s delay on a
/// `NumberedGateClock(releasedFrom:)`: a first request takes the 503 and a `second` the 200, then the first is
/// cancelled while the second still waits (its sleep, number 2, not released), giving the 503 back. Returns the
/// clock, the mock, the request, the iterator of the clock's started sleeps (past sleep 2) and the second request.
func answerGivenBackWhileALaterOneWaits(
    releasedFrom: Int, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> (
    NumberedGateClock, MockTransport, URLRequest, AsyncStream<Int>.Iterator, Task<Int, any Error>
) {
    let clock = NumberedGateClock(releasedFrom: releasedFrom)
    let mock = MockTransport(clock: clock)
    mock.register(.get, "/flaky", delay: .seconds(1), .status(503), .status(200))
    let request = URLRequest(url: try #require(URL(string: "https://h/flaky"), sourceLocation: sourceLocation))
    var started = clock.started.makeAsyncIterator()

    let first = Task { try await mock.send(request) }  // takes the 503
    #expect(await started.next() == 1, sourceLocation: sourceLocation)
    let second = Task { try await mock.send(request).1.statusCode }  // takes the 200
    #expect(await started.next() == 2, sourceLocation: sourceLocation)
    first.cancel()  // gives the 503 back while the 200 still waits
    _ = await first.result
    return (clock, mock, request, started, second)
}
