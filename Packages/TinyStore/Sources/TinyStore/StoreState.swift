import Foundation

/// Reads a store's state in a view and sends actions through `$state`: tinyTCA's property wrapper, spelled as the
/// seeds spell it.
///
/// ```swift
/// struct CounterView: View {
///     @StoreState private var state: CounterFeature.State
///     init(store: Store<CounterFeature>) { self._state = StoreState(store) }
///     var body: some View {
///         Button("\(state.count)") { $state.send(CounterFeature.Action.increment) }
///     }
/// }
/// ```
///
/// The wrapper is generic over the state alone (Swift cannot infer a feature from its state type), so `send` takes
/// the action with its type named: `$state.send(CounterFeature.Action.increment)`, not `$state.send(.increment)`.
/// To send with the short spelling, keep the `Store` too and call `store.send(.increment)`.
/// SwiftUI updates the view because ``Store`` is `Observable`; the wrapper itself is plain Swift.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@propertyWrapper
public struct StoreState<State: Sendable>: Sendable {
    private let read: @MainActor @Sendable () -> State
    private let sendAction: @MainActor @Sendable (any Sendable) -> StoreTask?

    /// Wraps a store.
    public init<F: Feature>(_ store: Store<F>) where F.State == State {
        read = { store.state }
        sendAction = { action in (action as? F.Action).map { store.send($0) } }
    }

    /// The store's current state.
    @MainActor public var wrappedValue: State { read() }

    /// The wrapper, reached as `$state` to send actions.
    public var projectedValue: Self { self }

    /// Sends an action to the store: `$state.send(CounterFeature.Action.increment)`.
    ///
    /// An action that is not of the store's `Action` type is not sent; the mistake is written to standard error.
    @MainActor @discardableResult
    public func send<Action: Sendable>(_ action: Action) -> StoreTask {
        if let task = sendAction(action) { return task }
        FileHandle.standardError.write(Data("TinyStore: StoreState<\(State.self)> cannot send \(action)\n".utf8))
        return StoreTask(task: nil)
    }
}

#if canImport(SwiftUI)
    import SwiftUI

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    extension StoreState: DynamicProperty {}
#endif
