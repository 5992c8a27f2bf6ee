/// How long a mock waits before it answers.
///
/// A plain value rather than `Duration`, so that it works on every platform the package supports (macOS 12,
/// iOS 15); on newer systems, create one from a `Duration` with ``init(_:)``.
///
/// ```swift
/// let mock = MockTransport(delay: .milliseconds(300))
/// ```
///
/// Out-of-range inputs never trap: negative or not-a-number delays are zero, huge ones are clamped.
public struct MockDelay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The delay in nanoseconds.
    public var nanoseconds: UInt64

    /// Creates a delay of `nanoseconds`.
    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    /// Creates a delay from a `Duration`; negative durations are zero.
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    public init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .seconds(Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// No delay at all.
    public static let zero = MockDelay(nanoseconds: 0)

    /// A delay of `seconds` seconds.
    public static func seconds(_ seconds: Double) -> MockDelay {
        let nanoseconds = seconds * 1e9
        guard nanoseconds > 0 else { return .zero }  // also not-a-number
        // UInt64.max is about 1.8e19; converting anything at or above it would trap.
        return MockDelay(nanoseconds: nanoseconds >= 1.8e19 ? UInt64.max : UInt64(nanoseconds))
    }

    /// A delay of `milliseconds` milliseconds.
    public static func milliseconds(_ milliseconds: Int) -> MockDelay {
        guard milliseconds > 0 else { return .zero }
        let (product, overflow) = UInt64(milliseconds).multipliedReportingOverflow(by: 1_000_000)
        return MockDelay(nanoseconds: overflow ? UInt64.max : product)
    }

    /// A realistic network delay for demos: 800 ms.
    public static let demo = MockDelay.milliseconds(800)
    /// A short delay for SwiftUI previews, long enough to glimpse a loading state: 200 ms.
    public static let preview = MockDelay.milliseconds(200)
    /// No delay, for tests.
    public static let testing = MockDelay.zero

    /// Whether `lhs` is shorter than `rhs`.
    public static func < (lhs: MockDelay, rhs: MockDelay) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// The delay in milliseconds, for example `"800 ms"`.
    public var description: String {
        nanoseconds % 1_000_000 == 0 ? "\(nanoseconds / 1_000_000) ms" : "\(nanoseconds) ns"
    }
}
