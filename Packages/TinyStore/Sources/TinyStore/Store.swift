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
/// Each ``send(_:catch:)`` runs the reducer at once, then asks the feature for the action's ``Effect``: `.none` costs
/// no task; other work runs off the main actor, and the action it returns is sent back on the main actor (and its
/// effect runs in turn). The returned ``StoreTask`` waits for or cancels that chain. When the store is released, its
/// running effects are cancelled.
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

    /// Called when an effect ends, with the action it sent back (if any, and the reducer accepted it) and the state
    /// after it (for `TestStore`).
    package var onEffectEnd: (@MainActor ((action: F.Action, state: F.State)?) -> Void)?
    /// Recorded with each effect started from now on and inherited by the effects of the actions it sends back (for
    /// `TestStore`: where the action was sent).
    package var origin: (any Sendable)?
    /// The running effects, oldest first: the action that started each, ``origin`` at its start, its ids, task,
    /// operation and `catch` handler.
    package private(set) var effects: [RunningEffect] = []
    /// A running effect; its task then runs the effect of the action it sends back (and so on), as a new record.
    package typealias RunningEffect = (
        action: F.Action, origin: (any Sendable)?, ids: [any Hashable & Sendable], serial: Int, task: Task<Void, Never>,
        operation: @Sendable () async throws -> (any Sendable)?, handler: (@Sendable (any Error) -> F.Action)?
    )

    private var current: F.State
    private var observers: [WeakObserver] = [] { didSet { hasObservers = !observers.isEmpty } }
    /// `!observers.isEmpty`, without the generic metadata lookups that cost tens of nanoseconds in every `send`.
    private var hasObservers = false
    /// States sent while a delivery is under way, each to go to the observers registered when it was sent, after the
    /// current one; whether one is under way.
    private var (deliveries, delivering) = ([(state: F.State, observers: Range<Int>)](), false)
    /// Where Observation sees `state` change. Not generic, so registering an access or a change costs what it costs
    /// in a plain `@Observable` class: no key path into a generic class (microseconds to make), no generic lookups.
    private let changes = Changes()

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
        let ended = observers.compactMap(\.callback)
        for observer in ended { observer.onEnd?() }
        // Their callbacks go with the store, as an ended observation's do: on the main actor, right after this.
        Task { @MainActor in for observer in ended { observer.cancel() } }
    }

    /// Applies `action` with the reducer, then starts its effect.
    ///
    /// If the reducer throws, the state stays as it was, the error goes to ``onError`` and no effect starts. An error
    /// the effect throws goes to ``onError`` too, unless `handler` turns it into an action to send back:
    ///
    /// ```swift
    /// store.send(.load) { error in .loadFailed(error.localizedDescription) }
    /// ```
    ///
    /// The handler covers this action's effect only (an error of the effect of an action it sends back goes to
    /// ``onError``); cancellation is not an error and is not passed to it.
    ///
    /// - Parameters:
    ///   - action: The action to apply.
    ///   - handler: Turns an error the effect throws into the action to send back; by default the error goes to
    ///     ``onError``.
    /// - Returns: A handle to await or cancel the effect and those of the actions it sends back.
    @discardableResult
    public func send(_ action: F.Action, catch handler: (@Sendable (any Error) -> F.Action)? = nil) -> StoreTask {
        StoreTask(task: apply(action) { $0.flatMap { record($0, of: action, catch: handler) }?.task })
    }

    /// Applies `action` and, before observers hear of the change, `start`s its effect (`nil` for `.none`): an action one
    /// sends starts its effect after this one's (and its `.cancel(id:)` reaches it), in the order the actions were
    /// sent. When the reducer throws (reported), `start` is not called and the result is `nil`.
    private func apply<Started>(_ action: F.Action, start: (EffectWork?) -> Started?) -> Started? {
        var newState = current
        do { try F.reducer(state: &newState, action: action) } catch {
            report(error, of: action, origin: .reducer)
            return nil
        }
        current = newState
        changes.changed()  // after the change: observers told of it read the new state
        let started = start(F.effect(for: action, state: newState).work)
        if hasObservers { deliver(newState) }
        return started
    }

    /// Hands `state` to the observers registered now from `first` on (all, or a new one for its first call), in order.
    /// A state sent by an observer while it is called waits for the current delivery to end, so every observer sees
    /// the states in the order they happened (the last one last), as `StatefulEndpoint` delivers them.
    private func deliver(_ state: F.State, from first: Int = 0) {
        var (state, range) = (state, first..<observers.count)
        guard !delivering else { return deliveries.append((state, range)) }  // delivered after the current one
        // Only states sent during a delivery are queued, as in `StatefulEndpoint`, and delivered states leave the queue
        // in batches of 32 or more and half the queue or more (`removeFirst()` of an array of a generic element type
        // costs about 4,000 instructions, callgrind), so the work stays linear however many states one call sends.
        var (ended, next) = (false, 0)
        delivering = true
        while true {
            for observer in observers[range] {
                if let onChange = observer.callback?.onChange { onChange(state) } else { ended = true }
            }
            guard next < deliveries.count else { break }
            ((state, range), next) = (deliveries[next], next + 1)
            if next >= 32, next * 2 >= deliveries.count { (deliveries, next) = (Array(deliveries.dropFirst(next)), 0) }
        }
        if !deliveries.isEmpty { deliveries.removeAll(keepingCapacity: deliveries.capacity <= 64) }
        delivering = false
        if ended { observers.removeAll { $0.callback?.onChange == nil } }  // drops the entries of ended observations
    }

    /// Reports an error to ``onError`` (out of line: its generic types would cost every `send` tens of nanoseconds).
    @inline(never)
    private func report(_ error: any Error, of action: F.Action, origin: StoreError<F.Action>.Origin) {
        onError(StoreError(action: action, origin: origin, error: error))
    }

    /// The task that runs the effect recorded under `serial`, then the effect of the action it sends back, and so on:
    /// one task for the chain, so that cancelling it takes one step whatever its length, and an effect that ended lets
    /// go of what it captured. (A task per effect awaiting the next nested them.)
    private func chain(from serial: Int) -> Task<Void, Never> {
        Task { [weak self] in
            // Each operation (and `catch` handler) is read from its record, which its end removes: an effect that
            // ended is let go.
            var serial: Int? = serial
            while let running = serial, let effect = self?.effects.first(where: { $0.serial == running }) {
                let result: Result<F.Action?, any Error>
                do { result = .success(try await effect.operation() as? F.Action) } catch { result = .failure(error) }
                serial = self?.end(effect, with: result)
            }
        }
    }

    /// Cancels the effects running under any of `work`'s ids; then, unless it is a `.cancel(id:)`, records it, run by
    /// `task` (the chain of the effect that sent `action` back) or by a new chain, and returns its serial and task.
    ///
    /// Out of line, and returning no `RunningEffect`: that tuple's type depends on `F`, and a caller that handles one
    /// looks up its metadata on every call, which took three quarters of the instructions of a `send` without an effect
    /// (callgrind). The records are read only for ids: copying each one cost a `send` about 1,400 instructions per
    /// effect running.
    @inline(never)
    private func record(
        _ work: EffectWork, of action: F.Action, catch handler: (@Sendable (any Error) -> F.Action)? = nil,
        in task: Task<Void, Never>? = nil
    ) -> (serial: Int, task: Task<Void, Never>)? {
        if !work.ids.isEmpty {
            for running in effects where running.ids.contains(where: work.isMarked) { running.task.cancel() }
        }
        guard let operation = work.operation else { return nil }
        let serial = (effects.last?.serial ?? 0) + 1  // unique among the running effects, which are in serial order
        let task = task ?? chain(from: serial)
        effects.append((action, origin, work.ids, serial, task, operation, handler))
        return (serial, task)
    }

    /// Ends an effect: sends back the action it returned, or the `catch` handler's action for its error (an error
    /// without handler is reported); a cancelled effect sends nothing. Returns the serial of the effect of the action
    /// sent back, to run next in the same task, which inherits the ended effect's ``origin``.
    private func end(_ effect: RunningEffect, with result: Result<F.Action?, any Error>) -> Int? {
        // Not `removeAll(where:)`, which looks at and swaps every record after it (each copy costs, as above).
        if let index = effects.firstIndex(where: { $0.serial == effect.serial }) { effects.remove(at: index) }
        origin = effect.origin
        var next: F.Action?
        switch result {
        case _ where Task.isCancelled, .failure(is CancellationError): break
        case .success(let action): next = action
        case .failure(let error) where effect.handler != nil: next = effect.handler?(error)
        case .failure(let error): report(error, of: effect.action, origin: .effect)
        }
        var accepted: F.Action?  // an action the reducer rejects changed nothing: it is not one sent back
        defer { onEffectEnd?(accepted.map { ($0, current) }) }  // once the action sent back has changed the state
        guard let next else { return nil }
        // No `catch` handler: the first action's covers its own effect only.
        return apply(next) { work in
            accepted = next
            return work.flatMap { record($0, of: next, in: effect.task) }?.serial
        }
    }

    /// A registered callback: the ``StoreObservation`` returned for it, which the store holds weakly.
    final class Observer: StoreObservation {
        var onChange: (@MainActor (F.State) -> Void)?
        nonisolated let onEnd: (@Sendable () -> Void)?

        /// Registers `onChange` with `store` and calls it with the current state.
        init(_ store: Store, onChange: @escaping @MainActor (F.State) -> Void, onEnd: (@Sendable () -> Void)? = nil) {
            (self.onChange, self.onEnd) = (onChange, onEnd)
            super.init()
            store.observers.append(WeakObserver(callback: self))
            // A delivery of its own, so that a state sent from this call reaches it after the call; during a
            // delivery, now (the delivery under way holds back what it sends).
            if !store.delivering {
                store.deliver(store.current, from: store.observers.count - 1)
            } else {
                onChange(store.current)
            }
        }

        override func cancel() { onChange = nil }
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
    /// synchronously, in the order they were registered; an action a callback sends (from its first call too) reaches
    /// every observer after the current state has reached them all, so each sees the states in order.
    public func observe(_ onChange: @escaping @MainActor (F.State) -> Void) -> StoreObservation {
        Observer(self, onChange: onChange)
    }

    /// The current state, then the state after every action the reducer accepts; finishes when the store is
    /// released. Each access makes a new sequence, observing from then until it is dropped (a `for await` over
    /// `store.states` drops it when the loop ends) or its task is cancelled. States are buffered, so a slow reader
    /// misses none; a sequence kept without being read holds every state since its access.
    ///
    /// ```swift
    /// for await state in store.states where !state.isLoading { … }
    /// ```
    public var states: AsyncStream<F.State> {
        let (stream, continuation) = AsyncStream<F.State>.makeStream()
        let observation = Observer(self, onChange: { continuation.yield($0) }, onEnd: { continuation.finish() })
        continuation.onTermination = { _ in Task { @MainActor in observation.cancel() } }
        return stream
    }
}

/// Keeps a ``Store/observe(_:)`` callback registered: the observation ends when this is cancelled or released,
/// whichever comes first (see <doc:ObservationLifetime>).
@MainActor
public class StoreObservation {  // what the store returns is its `Observer`, which releases the callback
    /// Ends the observation now: the callback is released and never called again. Calling it again does nothing.
    public func cancel() {}
}

/// Where Observation sees a store's state change.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
final class Changes: Observable {
    private let registrar = ObservationRegistrar()
    private let state: Void = ()  // stands for the store's state in key paths

    func access() { registrar.access(self, keyPath: \.state) }

    func changed() { registrar.withMutation(of: self, keyPath: \.state) {} }
}
