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
    @inlinable
    public func load<A>(_ endpoint: Endpoint<A>) async throws -> sending A {
        // Inlinable: specialised in the caller for its `A`, a load makes no metadata lookups or value-witness calls
        // for `Endpoint<A>` (about 2,700 instructions a request, callgrind).
        if let requestError = endpoint.requestError { throw requestError }
        let sent = try await sendDeferringResponse(endpoint.request)
        return try endpoint.result(data: sent.body, status: sent.status, contentType: sent.contentType, sent.response)
    }
}

extension Endpoint {
    /// Checks the status code of a response that arrived and parses it: the one place every loading API
    /// (async, completion handlers, `URLSession` data tasks, `StatefulEndpoint`'s revalidating fetch) turns a response
    /// into a result.
    @_spi(TinyKit) public func result(data: Data, response: HTTPURLResponse) -> Result<A, any Error> {
        Result { try result(data: data, status: response.statusCode, contentType: response.mimeType) { response } }
    }

    /// ``result(data:response:)`` from the status and `Content-Type` of a response a transport may not have made
    /// yet (`HTTPTransport.sendDeferringResponse(_:)`), thrown or returned: `response` is called only for a refused
    /// status or a body ``parseWithoutResponse`` leaves to ``parse``.
    @usableFromInline
    func result(data: Data, status: Int, contentType: String?, _ response: () throws -> HTTPURLResponse) throws -> A {
        // The failure `validateStatus(response:body:request:expectedStatusCode:)` throws, without asking again.
        guard expectedStatusCode(status) else {
            throw HTTPTransportError(
                .unacceptableStatus(status), request: request, response: try response(), body: data)
        }
        return try (parseWithoutResponse?(data, contentType) ?? parse(data, response())).get()
    }
}
