/// What an action starts, decided right after the reducer: nothing, or work off the main actor whose result is sent
/// back, optionally under ids that cancel the work running under the same ids. The Composable Architecture's shape:
///
/// ```swift
/// static func effect(for action: Action, state: State) -> Effect<Action> {
///     switch action {
///     case .queryChanged(let query):  // search as you type: a new query cancels the search in flight
///         return .run { .results(try await API.search(query)) }.cancellable(id: "search")
///     case .disappeared:  // the screen went away
///         return .cancel(id: "search")
///     default:
///         return .none
///     }
/// }
/// ```
///
/// A cancelled effect sends nothing back, and its error, if any, is not reported.
public struct Effect<Action: Sendable>: Sendable {
    /// `nil` for `.none`. A reference to a type that is not generic, so that a generic store handles an `Effect`
    /// without generic metadata lookups, which would cost every `send` tens of nanoseconds.
    let work: EffectWork?

    /// No work: ``Store/send(_:catch:)`` starts no task.
    public static var none: Self { Self(work: nil) }

    /// Runs `operation` off the main actor and sends back the action it returns, if any.
    public static func run(_ operation: @escaping @Sendable () async throws -> Action?) -> Self {
        Self(work: EffectWork(operation: operation, ids: []))
    }

    /// Cancels the effects running under `id`: those with an id of the same type and value (among their ids).
    public static func cancel(id: some Hashable & Sendable) -> Self {
        Self(work: EffectWork(operation: nil, ids: [id]))
    }

    /// This effect under `id` too: starting it cancels the effects running under `id` first, and ``cancel(id:)``
    /// stops it. Ids of different types are different ids, whatever their values (`1` is not `UInt64(1)`). `.none`
    /// and a `.cancel(id:)` are returned as they are.
    public func cancellable(id: some Hashable & Sendable) -> Self {
        guard let work, let operation = work.operation else { return self }  // `.none` and `.cancel(id:)` stay
        return Self(work: EffectWork(operation: operation, ids: work.ids + [id]))
    }
}

/// What an ``Effect`` other than `.none` does: an operation returning an `Action?` (typed `any Sendable` here), ids,
/// or both.
final class EffectWork: Sendable {
    let operation: (@Sendable () async throws -> (any Sendable)?)?
    let ids: [any Hashable & Sendable]

    init(operation: (@Sendable () async throws -> (any Sendable)?)?, ids: [any Hashable & Sendable]) {
        (self.operation, self.ids) = (operation, ids)
    }

    /// Whether this work is under `id`: one of its ids of the same type and value.
    func isMarked(_ id: any Hashable & Sendable) -> Bool {
        ids.contains { type(of: $0) == type(of: id) && AnyHashable($0) == AnyHashable(id) }
    }
}
