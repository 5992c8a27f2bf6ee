/// Keeps a ``Store/observe(_:)`` callback registered: the callback stops when this is cancelled or released.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
public final class StoreObservation {
    private var onCancel: (@MainActor () -> Void)?

    init(onCancel: @escaping @MainActor () -> Void) {
        self.onCancel = onCancel
    }

    /// Stops the callback now.
    public func cancel() {
        onCancel?()
        onCancel = nil
    }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension Store {
    /// Calls `onChange` with the current state now, and again on the main actor after every action the reducer
    /// accepts, until the returned observation is cancelled or released.
    ///
    /// ```swift
    /// let observation = store.observe { state in print(state.count) }
    /// ```
    ///
    /// For code without SwiftUI: a command-line program, a UIKit controller, a test.
    public func observe(_ onChange: @escaping @MainActor (F.State) -> Void) -> StoreObservation {
        let id = makeID()
        let token = StoreObservation { [weak self] in self?.removeObserver(id) }
        addObserver(id, token: token, onChange: onChange)
        onChange(state)
        return token
    }

    /// The current state, then the state after every action the reducer accepts; finishes when the store is
    /// released. Each access makes a new sequence; states are buffered, so a slow reader misses none.
    ///
    /// ```swift
    /// for await state in store.states where !state.isLoading { … }
    /// ```
    public var states: AsyncStream<F.State> {
        let (stream, continuation) = AsyncStream<F.State>.makeStream(bufferingPolicy: .unbounded)
        let id = makeID()
        continuation.yield(state)
        addContinuation(id, continuation)
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.removeContinuation(id) }
        }
        return stream
    }
}
