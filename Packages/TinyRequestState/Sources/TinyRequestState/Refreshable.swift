/// A ``RequestState`` that remembers the last loaded value while reloading and after a failed reload.
///
/// A list that refreshes should keep showing its rows under a spinner, and keep them under an error banner when the
/// refresh fails. `RequestState` alone cannot hold that (its `.loading` case has no value, so that `== .loading`
/// stays exact); `Refreshable` keeps the value of the latest success beside the current state.
///
/// ```swift
/// var users = Refreshable<[String]>()
/// users.state = .success(["Ada"])
/// users.state = .loading        // users.value == ["Ada"], users.state.isLoading == true
/// users.state = .failure("Offline")  // users.value == ["Ada"], users.state.error?.message == "Offline"
/// ```
///
/// To start over (after a logout, say), assign `Refreshable()`: it forgets the kept value.
public struct Refreshable<Value> {
    /// The current request state. Setting a success also updates ``value``.
    public var state: RequestState<Value> {
        didSet { value = state.value ?? value }  // `.some` for every success, even of an optional `Value`
    }

    /// The value of the latest success, kept while reloading and after a failure; `nil` before the first success.
    public private(set) var value: Value?

    /// Creates a refreshable state, with the value of `state` if it is a success.
    public init(_ state: RequestState<Value> = .idle) {
        self.state = state
        self.value = state.value
    }
}

extension Refreshable: Sendable where Value: Sendable {}
extension Refreshable: Equatable where Value: Equatable {}
extension Refreshable: Hashable where Value: Hashable {}
