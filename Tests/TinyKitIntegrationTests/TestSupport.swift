@_spi(TinyKit) import TinyHTTPTransport

/// Whether URLSession is FoundationNetworking's (libcurl underneath, Linux): where several known issues are certain,
/// and intermittent (not seen) elsewhere.
#if canImport(FoundationNetworking)
    let onFoundationNetworking = true
#else
    let onFoundationNetworking = false
#endif

/// A test clock: `now` moves only when a test moves it (``advance(by:)``) or something sleeps on it. Each sleep
/// reports its duration to `onSleep`, then waits that long in real time when `waits` is set (else it returns at once,
/// still noticing cancellation), and moves `now` to its deadline.
struct TestClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    var waits = false
    var onSleep: @Sendable (Duration) -> Void = { _ in }
    private let current = Locked(Instant(offset: .zero))

    var now: Instant { current.withLock { $0 } }
    var minimumResolution: Duration { .zero }

    /// Moves `now` on by `duration`, as if that much time had passed.
    func advance(by duration: Duration) { current.withLock { $0 = $0.advanced(by: duration) } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let duration = now.duration(to: deadline)
        onSleep(duration)
        if waits { try await Task.sleep(for: duration) } else { try Task.checkCancellation() }
        current.withLock { $0 = max($0, deadline) }
    }
}

extension Result {
    /// The failure, `nil` on success.
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
