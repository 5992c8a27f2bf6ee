import Foundation

/// A value guarded by a lock: the one lock type of every TinyKit package (`@_spi(TinyKit) import TinyHTTPTransport`).
///
/// The only way to the value is ``withLock(_:)``. `NSLock` rather than `Mutex`, which needs iOS 18 / macOS 15.
// @unchecked Sendable: `value` is only read or written inside `withLock`, which holds `lock`, and `Value` is
// `Sendable`, so nothing reachable from it escapes unguarded.
@_spi(TinyKit) public final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Guards `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value. `body` must not take this lock again.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
