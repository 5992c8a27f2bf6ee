/// What an action starts, decided right after the reducer: nothing, or work off the main actor whose result is sent
/// back, optionally under an id that cancels the work running under the same id. The Composable Architecture's shape:
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
        Self(work: EffectWork(operation: operation, id: nil))
    }

    /// Cancels the effects running under `id`.
    public static func cancel(id: some Hashable & Sendable) -> Self { Self(work: EffectWork(operation: nil, id: id)) }

    /// This effect under `id`: starting it cancels the effects running under `id` first, and ``cancel(id:)`` stops it.
    /// `.none` and a `.cancel(id:)` are returned as they are.
    public func cancellable(id: some Hashable & Sendable) -> Self {
        guard let operation = work?.operation else { return self }  // `.none` and `.cancel(id:)` stay what they are
        return Self(work: EffectWork(operation: operation, id: id))
    }
}

/// What an ``Effect`` other than `.none` does: an operation returning an `Action?` (typed `any Sendable` here), an
/// id, or both.
final class EffectWork: Sendable {
    let operation: (@Sendable () async throws -> (any Sendable)?)?
    let id: (any Hashable & Sendable)?

    init(operation: (@Sendable () async throws -> (any Sendable)?)?, id: (any Hashable & Sendable)?) {
        (self.operation, self.id) = (operation, id)
    }
}
