/// A unit of app logic: its state, the actions that change it, a reducer, and the effects actions start.
///
/// ```swift
/// struct CounterFeature: Feature {
///     struct State: Sendable, Equatable { var count = 0 }
///     enum Action: Sendable { case increment }
///     static var initialState: State { State() }
///     static func reducer(state: inout State, action: Action) throws {
///         switch action {
///         case .increment: state.count += 1
///         }
///     }
/// }
/// ```
///
/// The reducer runs on the main actor and must be synchronous and free of side effects; it may throw to reject an
/// action (the state is then left as it was). Work that waits — network calls, timers — is the action's effect.
///
/// Write the effect in one of two shapes:
/// - tinyTCA's: `static func effect(for:state:) async throws -> Action?`, run off the main actor after every action
///   (the default returns `nil`). Simple, but every ``Store/send(_:catch:)`` then starts a task, since the store
///   cannot know beforehand that it will return `nil`.
/// - TCA's: `static func effect(for:state:) -> Effect<Action>`, decided synchronously on the main actor right after
///   the reducer: `.none` (no task at all), `.run { … }`, `.cancellable(id:)`, `.cancel(id:)`. See ``Effect``.
///
/// `State` and `Action` are `Sendable` because effects receive them on another executor and send actions back. The
/// feature itself is `Sendable`, as in tinyTCA, so effects may call its static members: a struct or enum with no
/// stored properties, which is what a feature is, is `Sendable` as it stands.
/// Everything is static, so dependencies are types too: make the feature generic over a protocol with static
/// requirements (`struct UserFeature<API: UserAPI>: Feature`) to swap a live client for a stub.
public protocol Feature: Sendable {
    /// The state the feature holds.
    associatedtype State: Sendable
    /// What can happen: user input and the results of effects.
    associatedtype Action: Sendable

    /// The state a new ``Store`` starts from.
    static var initialState: State { get }

    /// Applies an action to the state. Throw to reject the action; the store then keeps the state as it was.
    static func reducer(state: inout State, action: Action) throws

    /// tinyTCA's effect: the asynchronous work an action starts, given the state after the reducer ran; returns the
    /// action to send back, or `nil`. Runs off the main actor. The default starts no work.
    static func effect(for action: Action, state: State) async throws -> Action?

    /// The effect an action starts, decided on the main actor right after the reducer accepted it, given the new
    /// state. Return `.none` for actions without work: ``Store/send(_:catch:)`` then starts no task. The default runs
    /// the `async` `effect(for:state:)` for every action.
    static func effect(for action: Action, state: State) -> Effect<Action>
}

extension Feature {
    /// No work: returns `nil`.
    public static func effect(for action: Action, state: State) async throws -> Action? { nil }

    /// Runs the `async` `effect(for:state:)` for every action.
    public static func effect(for action: Action, state: State) -> Effect<Action> {
        .run { try await effect(for: action, state: state) }
    }
}
