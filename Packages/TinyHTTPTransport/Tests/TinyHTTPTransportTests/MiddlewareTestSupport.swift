import Foundation
@_spi(TinyKit) import TinyHTTPTransport

/// A transport answering with a closure, per test.
struct ClosureTransport: HTTPTransport {
    let handler: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

    init(_ handler: @escaping @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)) {
        self.handler = handler
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) { try await handler(request) }
}

/// A list that closures running concurrently append to.
final class Recorder<Item: Sendable>: Sendable {
    private let items = Locked<[Item]>([])

    func append(_ item: Item) { items.withLock { $0.append(item) } }

    var all: [Item] { items.withLock { $0 } }
}

/// A response to `request` (or to `/`) with `status`, `headers` and a text body.
func reply(
    _ request: URLRequest? = nil, _ status: Int, headers: [String: String] = [:], body: String = ""
) throws -> (Data, HTTPURLResponse) {
    let url = request?.url ?? URL(fileURLWithPath: "/")
    guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
    else { throw HTTPTransportError(.other, message: "no response") }
    return (Data(body.utf8), response)
}

/// A test clock whose time stands still unless a test moves it (``advance(by:)``) or something sleeps on it.
///
/// Each sleep is recorded and moves `now` to its deadline. It returns at once, unless the clock was made with
/// `sleepsUntilCancelled`: then it waits until its task is cancelled (for the cancellation tests), after yielding
/// the duration to ``started``.
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

    /// Moves `now` on by `duration`, as if that much time had passed.
    func advance(by duration: Duration) { state.withLock { $0.now = $0.now.advanced(by: duration) } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let duration = state.withLock { state in
            let duration = state.now.duration(to: deadline)
            state.sleeps.append(duration)
            state.now = max(state.now, deadline)
            return duration
        }
        startedSleeping.yield(duration)
        if sleepsUntilCancelled {
            while true { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
        }
        try Task.checkCancellation()
    }
}

let testURL = URL(fileURLWithPath: "/api/items")
