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
/// action (the state is then left as it was). Work that waits — network calls, timers — goes into
/// ``effect(for:state:)``, which runs off the main actor and may return a follow-up action.
///
/// `State` and `Action` are `Sendable` because effects receive them on another executor and send actions back.
/// Everything is static, so dependencies are types too: make the feature generic over a protocol with static
/// requirements (`struct UserFeature<API: UserAPI>: Feature`) to swap a live client for a stub.
public protocol Feature {
    /// The state the feature holds.
    associatedtype State: Sendable
    /// What can happen: user input and the results of effects.
    associatedtype Action: Sendable

    /// The state a new ``Store`` starts from.
    static var initialState: State { get }

    /// Applies an action to the state. Throw to reject the action; the store then keeps the state as it was.
    static func reducer(state: inout State, action: Action) throws

    /// The asynchronous work an action starts, given the state after the reducer ran; returns the action to send
    /// back, or `nil`. Runs off the main actor. The default starts no work.
    static func effect(for action: Action, state: State) async throws -> Action?
}

extension Feature {
    /// No effect: returns `nil`.
    public static func effect(for action: Action, state: State) async throws -> Action? { nil }
}
