import Foundation

/// A value that several tasks read and change, guarded by a lock.
///
/// `@unchecked Sendable`: the compiler cannot see that `value` is only ever touched while `lock` is held; every
/// access goes through ``withLock(_:)``, and `Value` itself is `Sendable`, so no reference escapes unguarded.
/// `NSLock` rather than `Mutex`, which needs macOS 15 / iOS 18 while this package supports macOS 12 / iOS 15.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
