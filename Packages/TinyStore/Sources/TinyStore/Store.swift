import Foundation
import Observation

/// Holds a ``Feature``'s state on the main actor, applies actions with its reducer and runs their effects.
///
/// ```swift
/// let store = Store<CounterFeature>()
/// store.send(.increment)
/// store.state.count  // 1
/// ```
///
/// The store is `Observable`: SwiftUI views (and `withObservationTracking`) that read ``state`` update when it
/// changes. Code without SwiftUI can ``observe(_:)`` it with a callback or iterate ``states``.
///
/// Each ``send(_:)`` runs the reducer at once, then asks the feature for the action's ``Effect``: `.none` costs no
/// task; other work runs off the main actor, and the action it returns is sent back on the main actor (and its effect
/// runs in turn). The returned ``StoreTask`` waits for or cancels that chain. When the store is released, its running
/// effects are cancelled.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
public final class Store<F: Feature>: Observable {
    /// The current state. Change it by sending actions.
    public var state: F.State {
        changes.access()
        return current
    }

    /// Receives every reducer error and every effect error not handled by a `catch` handler.
    ///
    /// The default writes the error to standard error.
    public var onError: @MainActor (StoreError<F.Action>) -> Void

    /// Called when an effect ends, with the action it sent back (if any) and the state after it (for `TestStore`).
    package var onEffectEnd: (@MainActor ((action: F.Action, state: F.State)?) -> Void)?
    /// Recorded with each effect started from now on and inherited by the effects of the actions it sends back (for
    /// `TestStore`: where the action was sent).
    package var origin: (any Sendable)?
    /// The running effects, oldest first: the action that started each, ``origin`` at its start, its id and task.
    package private(set) var effects: [RunningEffect] = []
    /// A running effect; its task also waits for the effects of the action it sends back.
    package typealias RunningEffect = (
        action: F.Action, origin: (any Sendable)?, id: (any Hashable & Sendable)?, serial: Int, task: Task<Void, Never>
    )

    private(set) var current: F.State
    var observers: [WeakObserver] = [] { didSet { hasObservers = !observers.isEmpty } }
    /// `!observers.isEmpty`, without the generic metadata lookups that cost tens of nanoseconds in every `send`.
    private var hasObservers = false
    /// Where Observation sees `state` change. Not generic, so registering an access or a change costs what it costs
    /// in a plain `@Observable` class: no key path into a generic class (microseconds to make), no generic lookups.
    private let changes = Changes()
    private var nextSerial = 0

    /// Creates a store starting from `initialState` (by default the feature's ``Feature/initialState``).
    ///
    /// - Parameters:
    ///   - initialState: The state to start from.
    ///   - onError: Receives reducer errors and unhandled effect errors; by default they are written to standard
    ///     error. See ``onError``.
    public init(initialState: F.State = F.initialState, onError: (@MainActor (StoreError<F.Action>) -> Void)? = nil) {
        current = initialState
        self.onError = onError ?? { error in FileHandle.standardError.write(Data("TinyStore: \(error)\n".utf8)) }
    }

    /// A store for SwiftUI previews, starting from the given state: `.preview(CounterFeature.State(count: 42))`.
    public static func preview(_ state: F.State) -> Store<F> { Store(initialState: state) }

    deinit {
        for effect in effects { effect.task.cancel() }
        for observer in observers { observer.callback?.onEnd?() }
    }

    /// Applies `action` with the reducer, then starts its effect.
    ///
    /// If the reducer throws, the state stays as it was, the error goes to ``onError`` and no effect starts. An error
    /// the effect throws goes to ``onError`` too; use ``send(_:catch:)`` to turn it into an action instead.
    ///
    /// - Returns: A handle to await or cancel the effect and those of the actions it sends back.
    @discardableResult
    public func send(_ action: F.Action) -> StoreTask { dispatch(action, catch: nil) }

    /// Applies `action` like ``send(_:)``, and turns an error its effect throws into the action `handler` returns.
    ///
    /// ```swift
    /// store.send(.load) { error in .loadFailed(error.localizedDescription) }
    /// ```
    ///
    /// The handler covers this action's effect only; cancellation is not an error and is not passed to it.
    @discardableResult
    public func send(_ action: F.Action, catch handler: @escaping @Sendable (any Error) -> F.Action) -> StoreTask {
        dispatch(action, catch: handler)
    }

    private func dispatch(_ action: F.Action, catch handler: (@Sendable (any Error) -> F.Action)?) -> StoreTask {
        var newState = current
        do { try F.reducer(state: &newState, action: action) } catch {
            return report(error, of: action, origin: .reducer)
        }
        current = newState
        changes.changed()  // after the change: observers told of it read the new state
        if hasObservers {
            observers.removeAll { $0.callback == nil }
            for observer in observers { observer.callback?.onChange(newState) }
        }
        guard let work = F.effect(for: action, state: newState).work else { return StoreTask(nil) }  // `.none`
        return start(work, of: action, catch: handler)
    }

    /// Reports an error to ``onError`` (out of line: its generic types would cost every `send` tens of nanoseconds).
    @inline(never)
    private func report(_ error: any Error, of action: F.Action, origin: StoreError<F.Action>.Origin) -> StoreTask {
        onError(StoreError(action: action, origin: origin, error: error))
        return StoreTask(nil)
    }

    private func start(
        _ effect: EffectWork, of action: F.Action, catch handler: (@Sendable (any Error) -> F.Action)?
    ) -> StoreTask {
        if let id = effect.id.map({ AnyHashable($0) }) {
            for running in effects where running.id.map({ AnyHashable($0) }) == id { running.task.cancel() }
        }
        guard let operation = effect.operation else { return StoreTask(nil) }
        let (serial, origin) = (nextSerial, self.origin)
        nextSerial += 1
        let task = Task { [weak self] in
            let result: Result<F.Action?, any Error>
            do { result = .success(try await operation() as? F.Action) } catch { result = .failure(error) }
            let followUp = self?.end(serial, with: result, of: action, origin: origin, catch: handler)
            await followUp?.finish()  // without holding the store
        }
        effects.append((action, origin, effect.id, serial, task))
        return StoreTask(task)
    }

    /// Ends an effect: sends back the action it returned, or the `catch` handler's action for its error (an error
    /// without handler is reported); a cancelled effect sends nothing. Returns the effects of the action sent back.
    private func end(
        _ serial: Int, with result: Result<F.Action?, any Error>, of action: F.Action, origin: (any Sendable)?,
        catch handler: (@Sendable (any Error) -> F.Action)?
    ) -> StoreTask? {
        effects.removeAll { $0.serial == serial }
        self.origin = origin
        var next: F.Action?
        switch result {
        case _ where Task.isCancelled, .failure(is CancellationError): break
        case .success(let action): next = action
        case .failure(let error) where handler != nil: next = handler?(error)
        case .failure(let error): _ = report(error, of: action, origin: .effect)
        }
        let followUp = next.map { dispatch($0, catch: nil) }
        onEffectEnd?(next.map { ($0, current) })
        return followUp
    }
}

/// Where Observation sees a store's state change.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
final class Changes: Observable {
    private let registrar = ObservationRegistrar()
    private let state: Void = ()  // stands for the store's state in key paths

    func access() { registrar.access(self, keyPath: \.state) }

    func changed() { registrar.withMutation(of: self, keyPath: \.state) {} }
}
