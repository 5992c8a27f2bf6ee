/// What a mock waits its delays on: real time by default, or any `Clock` (a test clock makes delays instant).
///
/// ```swift
/// let instant = MockTransport(delay: .demo, clock: .immediate)        // skips every delay
/// let onTestClock = MockTransport(delay: .demo, clock: MockClock(myTestClock))
/// ```
///
/// A wrapper rather than `any Clock<Duration>` directly because `Clock` needs macOS 13 / iOS 16 and this package
/// supports macOS 12 / iOS 15; on those systems ``continuous`` falls back to `Task.sleep(nanoseconds:)`.
public struct MockClock: Sendable {
    /// Waits `nanoseconds`; throws when the waiting task is cancelled.
    let sleep: @Sendable (_ nanoseconds: UInt64) async throws -> Void

    /// Creates a clock from a sleep function, which must throw when the waiting task is cancelled.
    public init(sleep: @escaping @Sendable (_ nanoseconds: UInt64) async throws -> Void) {
        self.sleep = sleep
    }

    /// Waits on `clock`, for example a `ContinuousClock` or a test clock that advances instantly.
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    public init(_ clock: any Clock<Duration>) {
        self.sleep = { nanoseconds in
            let seconds = Int64(nanoseconds / 1_000_000_000)
            let rest = Int64(nanoseconds % 1_000_000_000)
            try await clock.sleep(for: .seconds(seconds) + .nanoseconds(rest))
        }
    }

    /// Real time: `ContinuousClock` where it exists (macOS 13, iOS 16 and later, Linux), else `Task.sleep`.
    public static let continuous = MockClock { nanoseconds in
        if #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) {
            try await MockClock(ContinuousClock()).sleep(nanoseconds)
        } else {
            try await Task.sleep(nanoseconds: nanoseconds)
        }
    }

    /// Waits no time at all (but still notices cancellation): every delay is skipped.
    public static let immediate = MockClock { _ in try Task.checkCancellation() }
}
