import Foundation

/// A value guarded by a lock: the only way to reach it is ``withLock(_:)``.
final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written inside `withLock`, which holds `lock`, so every access
    // from any thread or task is serialised. Callers never let the `inout` reference escape the closure.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value. `body` must not call back into anything that takes this lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A weak reference to an observer's owner, compared by identity only.
struct WeakOwner: @unchecked Sendable {
    // @unchecked Sendable: the object is never used, only checked for `nil` and compared with `===`; both are atomic
    // weak-reference loads in the Swift runtime. It lives inside a `Locked` value, whose lock serialises the writes.
    weak var object: AnyObject?
}
