import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

/// A clock the test drives, for the mock's delays and for freshness: `now` moves only with ``advance(by:)``, and
/// the n-th sleep (a request waiting for its answer) returns once ``open(_:)`` has let n sleeps through, or throws
/// when its task is cancelled.
final class TestClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleeps = 0
        var opened = 0
        var sleepers: [Int: CheckedContinuation<Void, Never>] = [:]
        var sleepWaiters: [(Int, CheckedContinuation<Void, Never>)] = []
    }

    private let state: Locked<State>

    /// - Parameter opened: How many sleeps may return before ``open(_:)`` is called; by default every one.
    init(opened: Int = .max) { state = Locked(State(opened: opened)) }

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    func advance(by duration: Duration) { state.withLock { $0.now = $0.now.advanced(by: duration) } }

    /// Lets `count` more sleeps return (the next ones in the order they started).
    func open(_ count: Int = 1) {
        let ready = state.withLock { state in
            state.opened += count
            let ready = state.sleepers.filter { $0.key <= state.opened }
            for number in ready.keys { state.sleepers[number] = nil }
            return ready.values
        }
        for sleeper in ready { sleeper.resume() }
    }

    /// Waits until `count` sleeps have started: that many requests are waiting for their answers.
    func waitForSleeps(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.sleeps >= count { return true }
                state.sleepWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let number = state.withLock { state in
            state.sleeps += 1
            return state.sleeps
        }
        let waiters = state.withLock { state in
            let ready = state.sleepWaiters.filter { $0.0 <= number }.map(\.1)
            state.sleepWaiters.removeAll { $0.0 <= number }
            return ready
        }
        for waiter in waiters { waiter.resume() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    if number <= state.opened || Task.isCancelled { return true }
                    state.sleepers[number] = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: number) }?.resume()
        }
        try Task.checkCancellation()
    }
}

/// A mock answering `GET https://example.com/text` with `"v1"`, `"v2"`, … `"v6"` on successive calls (then `"v6"`
/// again), each after a sleep on `clock`.
func numberedMock(_ clock: TestClock = TestClock()) -> MockTransport {
    let mock = MockTransport(delay: .milliseconds(1), clock: clock)
    mock.register(.get, "/text", .text("v1"), .text("v2"), .text("v3"), .text("v4"), .text("v5"), .text("v6"))
    return mock
}

/// An endpoint that parses the body as a UTF-8 string.
func textEndpoint(_ url: String = "https://example.com/text") -> Endpoint<String> {
    Endpoint(request: URLRequest(url: URL(string: url) ?? URL(fileURLWithPath: "/"))) { data, _ in
        .success(String(decoding: data ?? Data(), as: UTF8.self))
    }
}

/// A transport for what the mock cannot do: it answers call n with `"v<n>"`, unlike the mock it answers even when
/// its task was cancelled, and the calls listed in `held` wait until ``release()``.
final class NumberingTransport: HTTPTransport {
    private struct State {
        var calls = 0
        var callWaiters: [(Int, CheckedContinuation<Void, Never>)] = []
    }

    private let holding: Set<Int>
    private let state = Locked(State())
    private let gate = Gate()

    init(holding: Set<Int> = []) { self.holding = holding }

    var calls: Int { state.withLock { $0.calls } }

    /// Lets the held calls answer.
    func release() { gate.open() }

    /// Waits until `count` calls were made.
    func waitForCalls(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.calls < count { state.callWaiters.append((count, continuation)) }
                return state.calls >= count
            }
            if done { continuation.resume() }
        }
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (call, waiters) = state.withLock { state in
            state.calls += 1
            let waiters = state.callWaiters.filter { $0.0 <= state.calls }.map(\.1)
            state.callWaiters.removeAll { $0.0 <= state.calls }
            return (state.calls, waiters)
        }
        for waiter in waiters { waiter.resume() }
        if holding.contains(call) { await gate.wait() }
        let url = request.url ?? URL(fileURLWithPath: "/")
        let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil)
        return (Data("v\(call)".utf8), try #require(response))
    }
}

/// An object whose only job is to be owned, observed, and deallocated.
final class Owner: Sendable {}

/// What one observer received.
@MainActor final class Received {
    var states: [RequestState<String>] = []
}

/// Waits until `endpoint` is in a state `predicate` accepts and returns that state.
@discardableResult @MainActor
func waitUntil<A: Sendable>(
    _ endpoint: StatefulEndpoint<A>, _ predicate: @escaping (RequestState<A>) -> Bool
) async -> RequestState<A>? {
    for await state in endpoint.states where predicate(state) { return state }
    return nil
}

/// Whether `part` appears in `whole` as a contiguous run: nothing skipped, nothing repeated, nothing reordered.
func isContiguousRun<T: Equatable>(_ part: [T], of whole: [T]) -> Bool {
    guard !part.isEmpty else { return true }
    guard part.count <= whole.count else { return false }
    return (0...(whole.count - part.count)).contains { whole[$0..<($0 + part.count)].elementsEqual(part) }
}

/// A store whose first save waits until ``release()``: a response still being stored (a slow disk). It keeps
/// nothing, or with `keeps` the last response written (the last write wins, as with a file).
final class HoldingStore: ResponseStore {
    private struct State {
        var saves = 0
        var released = false
        var held: CheckedContinuation<Void, Never>?
        var kept: (body: Data, response: HTTPURLResponse)?
    }

    let keeps: Bool

    /// Yields when the first save starts.
    let saving: AsyncStream<Void>
    private let started: AsyncStream<Void>.Continuation
    private let state = Locked(State())

    init(keeps: Bool = false) { (self.keeps, (saving, started)) = (keeps, AsyncStream.makeStream()) }

    /// How many saves began.
    var saveCount: Int { state.withLock { $0.saves } }

    /// The body written last.
    var keptBody: String? { state.withLock { $0.kept.map { String(decoding: $0.body, as: UTF8.self) } } }

    /// Lets the first save end.
    func release() {
        state.withLock { state in
            state.released = true
            defer { state.held = nil }
            return state.held
        }?.resume()
    }

    func restore<Value>(
        for request: URLRequest, _ decode: @Sendable (Data, HTTPURLResponse) throws -> Value
    ) async -> Value? {
        guard let kept = state.withLock({ $0.kept }) else { return nil }
        return try? decode(kept.body, kept.response)
    }

    func save(_ body: Data, _ response: HTTPURLResponse, for request: URLRequest) async {
        let isFirst = state.withLock { state in
            state.saves += 1
            return state.saves == 1
        }
        if isFirst {
            started.yield()
            await withCheckedContinuation { continuation in
                let released = state.withLock { state in
                    if !state.released { state.held = continuation }
                    return state.released
                }
                if released { continuation.resume() }
            }
        }
        if keeps { state.withLock { $0.kept = (body, response) } }
    }
}

/// A stored body as text: the decode function tests hand to `ResponseStore.restore(for:_:)`.
let storedText: @Sendable (Data, HTTPURLResponse) throws -> String = { data, _ in
    String(decoding: data, as: UTF8.self)
}

/// The text of every file in a store's directory.
func storedFiles(in directory: URL) -> String {
    let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
    return files.compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined()
}

/// A gate the tasks that reach it wait at until ``open()``, which lets them through, and every later one at once.
final class Gate: Sendable {
    private let state = Locked((opened: false, waiters: [CheckedContinuation<Void, Never>]()))

    /// Lets the waiting tasks through, and every task that comes later.
    func open() {
        let waiters = state.withLock { state in
            state.opened = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the gate is open.
    func wait() async {
        await withCheckedContinuation { continuation in
            let opened = state.withLock { state in
                if !state.opened { state.waiters.append(continuation) }
                return state.opened
            }
            if opened { continuation.resume() }
        }
    }
}
