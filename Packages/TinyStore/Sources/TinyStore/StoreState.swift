/// Reads a store's state in a view and sends actions through `$state`: tinyTCA's property wrapper.
///
/// ```swift
/// struct CounterView: View {
///     @StoreState<CounterFeature> private var state: CounterFeature.State
///     init(store: Store<CounterFeature>) { self._state = StoreState(store) }
///     var body: some View {
///         Button("\(state.count)") { $state.send(.increment) }
///     }
/// }
/// ```
///
/// Name the feature in the attribute (`@StoreState<CounterFeature>`): Swift cannot infer it from the state type.
/// SwiftUI updates the view because ``Store`` is `@Observable`; the wrapper itself is plain Swift.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@propertyWrapper
public struct StoreState<F: Feature>: Sendable {
    /// The store, reached as `$state`: `$state.send(.increment)`.
    public let projectedValue: Store<F>

    /// Wraps a store.
    public init(_ store: Store<F>) {
        self.projectedValue = store
    }

    /// The store's current state.
    @MainActor public var wrappedValue: F.State {
        projectedValue.state
    }
}

#if canImport(SwiftUI)
    import SwiftUI

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    extension StoreState: DynamicProperty {}
#endif
