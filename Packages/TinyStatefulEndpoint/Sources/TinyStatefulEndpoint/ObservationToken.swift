/// Ends an observation of a ``StatefulEndpoint`` early.
///
/// An observation ends when its owner goes away or when it is cancelled. One made with `observe(owner:)` is bound to
/// the owner passed in, so its token may be discarded; one without an owner (``StatefulEndpoint/observe(_:)``) is
/// bound to its token, and ends when the token is released.
@MainActor public final class ObservationToken {
    var end: (@MainActor () -> Void)?

    /// Ends the observation now: its closure is never called again and is released at once. Calling it again does
    /// nothing.
    public func cancel() { end.take()?() }
}
