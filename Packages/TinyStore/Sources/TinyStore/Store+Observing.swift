/// Keeps a ``Store/observe(_:)`` callback registered: the observation ends when this is cancelled or released,
/// whichever comes first (see <doc:ObservationLifetime>).
@MainActor
public final class StoreObservation {
    private var observer: AnyObject?

    init(_ observer: AnyObject) { self.observer = observer }

    /// Ends the observation now: the callback is released and never called again. Calling it again does nothing.
    public func cancel() { observer = nil }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension Store {
    /// A registered callback, owned by its ``StoreObservation``; the store holds it weakly.
    @MainActor final class Observer {
        let onChange: @MainActor (F.State) -> Void
        nonisolated let onEnd: (@Sendable () -> Void)?

        init(onChange: @escaping @MainActor (F.State) -> Void, onEnd: (@Sendable () -> Void)?) {
            (self.onChange, self.onEnd) = (onChange, onEnd)
        }
    }

    struct WeakObserver { weak var callback: Observer? }

    /// Calls `onChange` with the current state now, and again on the main actor after every action the reducer
    /// accepts, until the returned observation is cancelled or released (see <doc:ObservationLifetime>).
    ///
    /// ```swift
    /// let observation = store.observe { state in print(state.count) }
    /// ```
    ///
    /// For code without SwiftUI: a command-line program, a UIKit controller, a test. Callbacks are called
    /// synchronously, in the order they were registered.
    public func observe(_ onChange: @escaping @MainActor (F.State) -> Void) -> StoreObservation {
        register(Observer(onChange: onChange, onEnd: nil))
    }

    private func register(_ observer: Observer) -> StoreObservation {
        observers.append(WeakObserver(callback: observer))
        observer.onChange(current)
        return StoreObservation(observer)
    }

    /// The current state, then the state after every action the reducer accepts; finishes when the store is
    /// released. Each access makes a new sequence; states are buffered, so a slow reader misses none.
    ///
    /// ```swift
    /// for await state in store.states where !state.isLoading { … }
    /// ```
    public var states: AsyncStream<F.State> {
        let (stream, continuation) = AsyncStream<F.State>.makeStream()
        let observation = register(Observer(onChange: { continuation.yield($0) }, onEnd: { continuation.finish() }))
        continuation.onTermination = { _ in Task { @MainActor in observation.cancel() } }
        return stream
    }
}
