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
    let operation: (@Sendable () async throws -> Action?)?
    let id: (any Hashable & Sendable)?

    /// No work: ``Store/send(_:)`` starts no task.
    public static var none: Self { Self(operation: nil, id: nil) }

    /// Runs `operation` off the main actor and sends back the action it returns, if any.
    public static func run(_ operation: @escaping @Sendable () async throws -> Action?) -> Self {
        Self(operation: operation, id: nil)
    }

    /// Cancels the effects running under `id`.
    public static func cancel(id: some Hashable & Sendable) -> Self {
        Self(operation: nil, id: id)
    }

    /// This effect under `id`: starting it cancels the effects running under `id` first, and ``cancel(id:)`` stops it.
    public func cancellable(id: some Hashable & Sendable) -> Self {
        Self(operation: operation, id: id)
    }
}
