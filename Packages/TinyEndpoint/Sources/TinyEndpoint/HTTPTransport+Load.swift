import Foundation
import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPTransport {
    /// Sends the endpoint's request, checks the status code and parses the response.
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
    /// - Throws: `HTTPTransportError` for transport failures (its code `cancelled` when the task was cancelled) and
    ///   for unacceptable status codes (with the response and body); ``EndpointError`` when the response could not
    ///   be decoded; or the error of a custom parse function.
    public func load<A>(_ endpoint: Endpoint<A>) async throws -> sending A {
        let (data, response, attempts) = try await sendCountingAttempts(endpoint.request)
        switch endpoint.result(data: data, response: response) {
        case .success(let value):
            return value
        case .failure(var error as HTTPTransportError):
            // A retry middleware returned the last of several retryable responses: say how many attempts were made.
            error.attempts = attempts
            throw error
        case .failure(let error):
            throw error
        }
    }
}

extension Endpoint {
    /// Checks the status code of a response that arrived and parses it: the one place every loading API
    /// (async, completion handlers, `URLSession` data tasks) turns a response into a result.
    func result(data: Data, response: HTTPURLResponse) -> Result<A, any Error> {
        do {
            try validateStatus(response: response, body: data, request: request, accepting: expectedStatusCode)
        } catch {
            return .failure(error)
        }
        return parse(data, response)
    }
}
