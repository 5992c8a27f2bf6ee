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
/// The store is `@Observable`: SwiftUI views (and `withObservationTracking`) that read ``state`` update when it
/// changes. Code without SwiftUI can ``observe(_:)`` it with a callback or iterate ``states``.
///
/// Each ``send(_:)`` runs the reducer at once, then the feature's effect off the main actor; an action the effect
/// returns is sent back on the main actor (and its effect runs in turn). The returned ``StoreTask`` waits for or
/// cancels that chain. When the store is released, its running effects are cancelled.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
@Observable
public final class Store<F: Feature> {
    /// The current state. Change it by sending actions.
    public private(set) var state: F.State

    /// Receives every reducer error and every effect error not handled by a `catch` handler.
    ///
    /// The default writes the error to standard error.
    @ObservationIgnored public var onError: @MainActor (StoreError<F.Action>) -> Void

    /// Called with each action an effect sends back and the state after it (for `TestStore`).
    @ObservationIgnored package var onEffectAction: (@MainActor (F.Action, F.State) -> Void)?

    @ObservationIgnored private var effects: [Int: RunningEffect] = [:]
    @ObservationIgnored private var observers: [Int: Observer] = [:]
    @ObservationIgnored private var continuations: [Int: AsyncStream<F.State>.Continuation] = [:]
    @ObservationIgnored private var nextID = 0

    private struct RunningEffect: Sendable {
        var action: F.Action
        var task: Task<Void, Never>
    }

    private struct Observer {
        weak var token: StoreObservation?
        var onChange: @MainActor (F.State) -> Void
    }

    /// Creates a store starting from `initialState` (by default the feature's ``Feature/initialState``).
    ///
    /// - Parameters:
    ///   - initialState: The state to start from.
    ///   - onError: Receives reducer errors and unhandled effect errors; by default they are written to standard
    ///     error. See ``onError``.
    public init(
        initialState: F.State = F.initialState,
        onError: (@MainActor (StoreError<F.Action>) -> Void)? = nil
    ) {
        self.state = initialState
        self.onError = onError ?? { error in FileHandle.standardError.write(Data("TinyStore: \(error)\n".utf8)) }
    }

    /// A store for SwiftUI previews, starting from the given state: `.preview(CounterFeature.State(count: 42))`.
    public static func preview(_ state: F.State) -> Store<F> {
        Store(initialState: state)
    }

    deinit {
        for effect in effects.values { effect.task.cancel() }
        for continuation in continuations.values { continuation.finish() }
    }

    /// Applies `action` with the reducer, then starts its effect.
    ///
    /// If the reducer throws, the state stays as it was, the error goes to ``onError`` and no effect starts. An error
    /// the effect throws goes to ``onError`` too; use ``send(_:catch:)`` to turn it into an action instead.
    ///
    /// - Returns: A handle to await or cancel the effect and those of the actions it sends back.
    @discardableResult
    public func send(_ action: F.Action) -> StoreTask {
        dispatch(action, catch: nil)
    }

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

    /// The actions whose effects are still running, oldest first.
    package var runningEffects: [F.Action] {
        effects.sorted { $0.key < $1.key }.map(\.value.action)
    }

    /// Cancels every running effect.
    package func cancelEffects() {
        for effect in effects.values { effect.task.cancel() }
    }

    private func dispatch(
        _ action: F.Action, catch handler: (@Sendable (any Error) -> F.Action)?, fromEffect: Bool = false
    ) -> StoreTask {
        var newState = state
        do {
            try F.reducer(state: &newState, action: action)
        } catch {
            if fromEffect { onEffectAction?(action, state) }
            onError(StoreError(action: action, origin: .reducer, error: error))
            return StoreTask(nil)
        }
        state = newState
        if fromEffect { onEffectAction?(action, newState) }
        notifyObservers()
        return startEffect(for: action, state: newState, catch: handler)
    }

    private func startEffect(
        for action: F.Action, state: F.State, catch handler: (@Sendable (any Error) -> F.Action)?
    ) -> StoreTask {
        let id = makeID()
        let task = Task { [weak self] in
            let result = await Self.runEffect(for: action, state: state)
            let followUp = self?.handle(result, of: action, catch: handler)
            if let followUp {
                await followUp.finish()
            }
            self?.effects[id] = nil
        }
        effects[id] = RunningEffect(action: action, task: task)
        return StoreTask(task)
    }

    /// Sends the effect's follow-up action (or reports its error); returns the follow-up's own effects.
    private func handle(
        _ result: EffectResult, of action: F.Action, catch handler: (@Sendable (any Error) -> F.Action)?
    ) -> StoreTask? {
        let next: F.Action
        switch result {
        case .success(nil):
            return nil
        case .success(let action?):
            next = action
        case .failure(let error):
            if Task.isCancelled || error is CancellationError { return nil }
            guard let handler else {
                onError(StoreError(action: action, origin: .effect, error: error))
                return nil
            }
            next = handler(error)
        }
        if Task.isCancelled { return nil }
        return dispatch(next, catch: nil, fromEffect: true)
    }

    /// What an effect ended with: the action to send back (or `nil`), or the error it threw.
    private typealias EffectResult = Result<F.Action?, any Error>

    /// Runs the feature's effect off the main actor.
    nonisolated private static func runEffect(for action: F.Action, state: F.State) async -> EffectResult {
        do {
            return .success(try await F.effect(for: action, state: state))
        } catch {
            return .failure(error)
        }
    }

    func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    func addObserver(_ id: Int, token: StoreObservation, onChange: @escaping @MainActor (F.State) -> Void) {
        observers[id] = Observer(token: token, onChange: onChange)
    }

    func removeObserver(_ id: Int) {
        observers[id] = nil
    }

    func addContinuation(_ id: Int, _ continuation: AsyncStream<F.State>.Continuation) {
        continuations[id] = continuation
    }

    func removeContinuation(_ id: Int) {
        continuations[id] = nil
    }

    private func notifyObservers() {
        for (id, observer) in observers {
            if observer.token == nil {
                observers[id] = nil
            } else {
                observer.onChange(state)
            }
        }
        for continuation in continuations.values {
            continuation.yield(state)
        }
    }
}
