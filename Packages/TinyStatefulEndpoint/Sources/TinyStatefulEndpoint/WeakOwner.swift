/// A weak reference to an observer's owner, compared by identity only.
struct WeakOwner: @unchecked Sendable {
    // @unchecked Sendable: the object is never used, only checked for `nil` and compared with `===`; both are atomic
    // weak-reference loads in the Swift runtime. It lives inside a `Locked` value, whose lock serialises the writes.
    weak var object: AnyObject?
}
