/// The lifecycle of one request as a UI shows it: not started, loading, loaded, or failed.
///
/// ```swift
/// var users: RequestState<[User]> = .idle
/// users = .loading
/// users = .success(try await client.request(UserEndpoint.list, as: [User].self))
/// ```
///
/// A failure carries a ``RequestError``: a message for display, and the typed error it came from when there was one.
/// Both spellings of the seeds compile: `.failure(error.localizedDescription)` and `.failure("Network error")`;
/// `.failure(RequestError(error))` (or ``init(_:)`` from a `Result`) keeps the typed error.
///
/// The cases hold no previous value, so `state == .loading` means exactly "loading". To keep showing the last value
/// while reloading or after a failed reload, store a ``Refreshable`` instead.
public enum RequestState<Value> {
    /// Nothing requested yet.
    case idle
    /// A request is in flight.
    case loading
    /// The request succeeded with a value.
    case success(Value)
    /// The request failed.
    case failure(RequestError)

}

extension RequestState: Sendable where Value: Sendable {}
extension RequestState: Equatable where Value: Equatable {}
extension RequestState: Hashable where Value: Hashable {}

extension RequestState: CustomStringConvertible {
    /// `idle`, `loading`, `success(<value>)` or `failure(<message>)`.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .loading: "loading"
        case .success(let value): "success(\(value))"
        case .failure(let error): "failure(\(error.message))"
        }
    }
}
