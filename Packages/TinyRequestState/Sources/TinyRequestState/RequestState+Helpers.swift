extension RequestState {
    /// The value of a success, otherwise `nil`.
    public var value: Value? {
        if case .success(let value) = self { value } else { nil }
    }

    /// The error of a failure, otherwise `nil`.
    public var error: RequestError? {
        if case .failure(let error) = self { error } else { nil }
    }

    /// Whether nothing was requested yet.
    public var isIdle: Bool {
        if case .idle = self { true } else { false }
    }

    /// Whether a request is in flight.
    public var isLoading: Bool {
        if case .loading = self { true } else { false }
    }

    /// Whether the request succeeded.
    public var isSuccess: Bool { value != nil }  // `.some` for every success, even of an optional `Value`

    /// Whether the request failed.
    public var isFailure: Bool { error != nil }

    /// The same state with a success's value transformed; other cases are kept as they are.
    ///
    /// ```swift
    /// let names: RequestState<[String]> = users.map { $0.map(\.name) }
    /// ```
    public func map<NewValue>(_ transform: (Value) throws -> NewValue) rethrows -> RequestState<NewValue> {
        switch self {
        case .idle: .idle
        case .loading: .loading
        case .success(let value): .success(try transform(value))
        case .failure(let error): .failure(error)
        }
    }

    /// A success or a failure from a `Result`; the failure keeps the typed error (see ``RequestError/init(_:message:)``).
    ///
    /// ```swift
    /// case .usersResponse(let result): state.users = RequestState(result)
    /// ```
    public init(_ result: Result<Value, some Error>) {
        switch result {
        case .success(let value): self = .success(value)
        case .failure(let error): self = .failure(RequestError(error))
        }
    }

    /// A success with the value `body` returns, or a failure with the error it throws. `body` runs on the caller's
    /// actor, so a `@MainActor` model can call its own methods in it.
    ///
    /// ```swift
    /// state.users = await RequestState { try await api.users() }
    /// ```
    public init(
        isolation: isolated (any Actor)? = #isolation, catching body: () async throws -> Value
    ) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(RequestError(error))
        }
    }
}
