import Foundation

/// What middleware reads the time from and waits on: real time by default, or a test clock that makes every wait
/// instant.
///
/// ```swift
/// let live = MiddlewareClock.continuous
/// let onYourClock = MiddlewareClock(ContinuousClock())            // any `Clock<Duration>`
/// let recording = MiddlewareClock(now: { 0 }, sleep: { seconds in try Task.checkCancellation() })
/// ```
///
/// A small wrapper rather than `any Clock<Duration>` because `Clock` needs macOS 13 / iOS 16, and this package
/// supports macOS 12 / iOS 15.
public struct MiddlewareClock: Sendable {
    /// The time in seconds from an arbitrary, fixed origin (monotonic: for durations, not dates).
    public let now: @Sendable () -> Double
    /// Waits the given number of seconds; throws when the waiting task is cancelled, promptly.
    public let sleep: @Sendable (_ seconds: Double) async throws -> Void

    /// Creates a clock from its two functions. `sleep` must throw when the waiting task is cancelled.
    public init(
        now: @escaping @Sendable () -> Double, sleep: @escaping @Sendable (_ seconds: Double) async throws -> Void
    ) {
        self.now = now
        self.sleep = sleep
    }

    /// A clock reading and waiting on `clock`, for example `ContinuousClock()` or a test clock.
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        self.init(
            now: {
                let (seconds, attoseconds) = origin.duration(to: clock.now).components
                return Double(seconds) + Double(attoseconds) / 1e18
            },
            sleep: { seconds in try await clock.sleep(for: .nanoseconds(Self.nanoseconds(seconds))) })
    }

    /// Real time: `ContinuousClock` where it exists (macOS 13, iOS 16 and later, Linux), else `Task.sleep` and
    /// `ProcessInfo.systemUptime`.
    public static var continuous: MiddlewareClock {
        if #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) {
            return MiddlewareClock(ContinuousClock())
        }
        return MiddlewareClock(
            now: { ProcessInfo.processInfo.systemUptime },
            sleep: { seconds in try await Task.sleep(nanoseconds: UInt64(Self.nanoseconds(seconds))) })
    }

    /// `seconds` as whole nanoseconds: negative or not-a-number is zero, huge values are clamped (never traps).
    static func nanoseconds(_ seconds: Double) -> Int64 {
        let nanoseconds = seconds * 1e9
        guard nanoseconds > 0 else { return 0 }
        return nanoseconds >= 9.2e18 ? Int64.max : Int64(nanoseconds)
    }
}
