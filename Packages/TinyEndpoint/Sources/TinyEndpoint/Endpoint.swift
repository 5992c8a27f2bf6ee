import Foundation
import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A description of one HTTP call: the request to send, the status codes to accept, and how to turn the response
/// into a value of type `A`.
///
/// An endpoint loads nothing by itself; it is a plain value you can inspect and test without a network, and load
/// on any ``HTTPTransport``:
///
/// ```swift
/// let endpoint = Endpoint<[User]>(json: .get, url: usersURL)
/// let users = try await transport.load(endpoint)
/// ```
public struct Endpoint<A>: Sendable {
    /// The request sent for this endpoint.
    public var request: URLRequest
    /// Whether a response status code is acceptable; others fail with ``HTTPTransportError/Code/unacceptableStatus(_:)``.
    public var expectedStatusCode: @Sendable (Int) -> Bool
    /// Turns the body and response into the result (TinyNetworking's shape).
    public var parse: @Sendable (Data?, URLResponse?) -> Result<A, any Error>

    /// Creates an endpoint from a prepared request.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - expectedStatusCode: Which status codes are accepted; 200–299 by default.
    ///   - parse: Turns the body and response into the result.
    public init(
        request: URLRequest,
        expectedStatusCode: @escaping @Sendable (Int) -> Bool = expected200to300,
        parse: @escaping @Sendable (Data?, URLResponse?) -> Result<A, any Error>
    ) {
        self.request = request
        self.expectedStatusCode = expectedStatusCode
        self.parse = parse
    }
}

extension HTTPTransport {
    /// Sends the endpoint's request, checks the status code and parses the response.
    ///
    /// Parsing runs on the caller's executor for nonisolated callers and never on the main actor: this method is
    /// `nonisolated` and `async`, so it leaves the caller's actor.
    ///
    /// - Throws: ``HTTPTransportError`` for transport failures and unacceptable status codes (with the response
    ///   and body), or the error the endpoint's parse function produced.
    public func load<A>(_ endpoint: Endpoint<A>) async throws -> A {
        let (data, response) = try await send(endpoint.request)
        guard endpoint.expectedStatusCode(response.statusCode) else {
            throw HTTPTransportError(
                .unacceptableStatus(response.statusCode), request: endpoint.request, response: response, body: data)
        }
        return try endpoint.parse(data, response).get()
    }
}
