import Foundation
import TinyHTTPTransport

extension HTTPTransport {
    /// Sends the endpoint's request, checks the status code and parses the response: the one load every consumer
    /// (`URLSession.load`, `TinyAPIClient`, `StatefulEndpoint`, `EndpointLoading`, store effects) goes through.
    ///
    /// ```swift
    /// let users = try await transport.load(Endpoint<[User]>(json: .get, url: usersURL))
    /// ```
    ///
    /// Parsing (JSON decoding) never runs on the caller's actor, in particular never on the main actor: this method
    /// is `nonisolated` and `async`, so it runs on the global concurrent executor.
    ///
    /// - Parameter endpoint: The endpoint to load.
    /// - Returns: The parsed result.
    /// - Throws: The endpoint's ``Endpoint/requestError`` before sending anything; `HTTPTransportError` for
    ///   transport failures (its code `cancelled` when the task was cancelled) and for unacceptable status codes
    ///   (with the response and body); ``EndpointError`` when the response could not be decoded; or the error of a
    ///   custom parse function.
    public func load<A>(_ endpoint: Endpoint<A>) async throws -> sending A {
        if let requestError = endpoint.requestError { throw requestError }
        let (data, response) = try await send(endpoint.request)
        return try endpoint.result(data: data, response: response).get()
    }
}

extension Endpoint {
    /// Checks the status code of a response that arrived and parses it: the one place every loading API
    /// (async, completion handlers, `URLSession` data tasks, `StatefulEndpoint`'s revalidating fetch) turns a response
    /// into a result.
    @_spi(TinyKit) public func result(data: Data, response: HTTPURLResponse) -> Result<A, any Error> {
        Result<Void, any Error> {
            try validateStatus(response: response, body: data, request: request, expectedStatusCode: expectedStatusCode)
        }.flatMap { parse(data, response) }
    }
}
