@_spi(TinyKit) import TinyHTTPTransport

extension HTTPTransport {
    /// Loads `endpoint` and calls `onComplete` once with the result: TinyNetworking's callback shape, on any
    /// transport (a live one, a mock, or one with middleware).
    ///
    /// ```swift
    /// transport.load(api.post(id: 2)) { result in
    ///     // result is a Result<Post, any Error>
    /// }
    /// ```
    ///
    /// `onComplete` runs on no particular thread, never on the main actor of its own accord: hop to it yourself
    /// to update a UI. Errors are those of ``load(_:)``.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint to load.
    ///   - onComplete: Called once with the parsed result or the error.
    /// - Returns: The task that loads; cancel it to cancel the request (`onComplete` then gets the transport's
    ///   cancellation error, an `HTTPTransportError` with code `cancelled` from TinyKit's transports).
    @discardableResult
    public func load<A: Sendable>(
        _ endpoint: Endpoint<A>, onComplete: @escaping @Sendable (Result<A, any Error>) -> Void
    ) -> Task<Void, Never> {
        Task { onComplete(await Result { try await load(endpoint) }) }
    }
}
