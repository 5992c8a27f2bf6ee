/// Identifies one observation of a ``StatefulEndpoint``; pass it to ``StatefulEndpoint/removeObserver(_:)`` (or call
/// ``cancel()``) to stop it before its owner goes away.
///
/// Dropping the token does not end the observation: it ends when its owner is deallocated or when it is removed.
public struct ObservationToken: Hashable, Sendable {
    let id: UInt64
    let endpointID: ObjectIdentifier
    private let remove: @Sendable () -> Void

    init(id: UInt64, endpointID: ObjectIdentifier, remove: @escaping @Sendable () -> Void) {
        self.id = id
        self.endpointID = endpointID
        self.remove = remove
    }

    /// Removes the observation; the same as ``StatefulEndpoint/removeObserver(_:)``.
    public func cancel() { remove() }

    /// Two tokens are equal when they identify the same observation.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id && lhs.endpointID == rhs.endpointID }

    /// Hashes the identity of the observation.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(endpointID)
    }
}
