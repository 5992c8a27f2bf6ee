// Coming from TinyHTTP: its initialisers and ready-made validation and decode functions, kept so its code compiles
// unchanged. TinyKit's own spelling of the same is `Endpoint(request:expectedStatusCode:parse:)` and `expected200to300`.

import Foundation
import TinyHTTPTransport

extension Endpoint {
    /// Checks a response before it is decoded; throws to reject it (TinyHTTP's shape).
    public typealias ValidateResponse = @Sendable (HTTPURLResponse) throws -> Void
    /// Turns a body and its response into the result (TinyHTTP's shape).
    public typealias DecodeResponse = @Sendable (_ data: Data?, _ response: HTTPURLResponse) throws -> A

    /// Creates an endpoint from a request and a decode function, accepting the status codes 200–299 (TinyHTTP's
    /// initialiser).
    ///
    /// ```swift
    /// var request = URLRequest(url: todosURL)
    /// request.setValue("application/json", forHTTPHeaderField: "Accept")
    /// let todos = Endpoint<[Todo]>(request: request, decodeResponse: jsonDecoder.decodeResponse)
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - decodeResponse: Turns the body and response into the result, for example `JSONDecoder.decodeResponse`
    ///     or ``EndpointExpectation/ignoreResponse(_:_:)``.
    public init(request: URLRequest, decodeResponse: @escaping DecodeResponse) {
        self.init(request: request, validateResponse: { _ in }, decodeResponse: decodeResponse)
        expectedStatusCode = expected200to300
    }

    /// Creates an endpoint from a request, a validation and a decode function (TinyHTTP's initialiser).
    ///
    /// Every status code reaches `validateResponse`, which decides:
    /// ``EndpointExpectation/successStatusCode(response:)`` accepts 200–299 and rejects others with an
    /// `HTTPTransportError` carrying the response and body. An `HTTPTransportError` your own `validateResponse` throws
    /// gets the request, the response and the body it lacks too.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - validateResponse: Checks the response; throws to reject it.
    ///   - decodeResponse: Turns the body and response into the result.
    public init(
        request: URLRequest, validateResponse: @escaping ValidateResponse, decodeResponse: @escaping DecodeResponse
    ) {
        self.init(request: request, expectedStatusCode: { _ in true }) { data, response in
            Result {
                guard let response = response as? HTTPURLResponse else { throw EndpointError.notHTTPResponse }
                do {
                    try validateResponse(response)
                } catch var error as HTTPTransportError {
                    error.request = error.request ?? request
                    error.response = error.response ?? response
                    error.body = error.body ?? data
                    throw error
                }
                return try decodeResponse(data, response)
            }
        }
    }
}

/// TinyHTTP's ready-made validation and decode functions for
/// ``Endpoint/init(request:validateResponse:decodeResponse:)``.
///
/// ```swift
/// let delete = Endpoint<Void>(request: request, decodeResponse: EndpointExpectation.ignoreResponse)
/// ```
public enum EndpointExpectation: Sendable {
    /// Accepts the status codes 200–299.
    ///
    /// - Throws: An `HTTPTransportError` with the code `unacceptableStatus` and the response otherwise.
    @Sendable public static func successStatusCode(response: HTTPURLResponse) throws {
        // No body here: the endpoint's parse adds the body and request to this error (see init above).
        guard expected200to300(response.statusCode) else {
            throw HTTPTransportError(.unacceptableStatus(response.statusCode), response: response)
        }
    }

    /// Succeeds when the body is empty (or missing).
    ///
    /// - Throws: ``EndpointError/unexpectedBody(_:)`` when there is a body.
    @Sendable public static func emptyResponse(_ data: Data?, _ response: HTTPURLResponse) throws {
        if let data, !data.isEmpty { throw EndpointError.unexpectedBody(data) }
    }

    /// Succeeds whatever the body.
    @Sendable public static func ignoreResponse(_ data: Data?, _ response: HTTPURLResponse) throws {}
}
