import Foundation
import TinyHTTPTransport

/// A description of one HTTP call: the request to send, the status codes to accept, and how to turn the response
/// into a value of type `A`.
///
/// An endpoint loads nothing by itself; it is a plain value you can inspect and test without a network, and load
/// on any `HTTPTransport`:
///
/// ```swift
/// let endpoint = Endpoint<[User]>(json: .get, url: usersURL)
/// let users = try await transport.load(endpoint)
/// ```
///
/// The three styles TinyKit unifies all produce this one type: TinyNetworking's initialisers
/// (``init(_:url:accept:contentType:body:headers:expectedStatusCode:timeOutInterval:query:parse:)-(_,_,_,_,_,_,_,_,_,(Data?,URLResponse?)->Result<A,Error>)``,
/// ``init(json:url:accept:body:headers:expectedStatusCode:timeOutInterval:query:decoder:encoder:checksContentType:)``), TinyHTTP's
/// ``init(request:validateResponse:decodeResponse:)``, and tinyAPI's ``TinyAPIEndpoint/endpoint(as:decoder:checksContentType:)``.
public struct Endpoint<A>: Sendable {
    /// The request sent for this endpoint.
    public var request: URLRequest
    /// Whether a response status code is acceptable; others fail with the `HTTPTransportError` code
    /// `unacceptableStatus`, carrying the response and its body.
    public var expectedStatusCode: @Sendable (Int) -> Bool
    /// Turns the body and response into the result (TinyNetworking's shape).
    ///
    /// Call it directly to test parsing without a network: `try endpoint.parse(data, nil).get()`.
    public var parse: @Sendable (Data?, URLResponse?) -> Result<A, any Error> {
        didSet { parseWithoutResponse = nil }
    }
    /// Why the request could not be built (a body that could not be encoded), thrown when the endpoint is loaded,
    /// before anything is sent; `nil` for an endpoint that can be sent.
    public internal(set) var requestError: EndpointError?
    /// ``parse``'s shortcut for a load that has the body, status and `Content-Type` but not yet an `HTTPURLResponse`
    /// (`HTTPTransport.sendDeferringResponse(_:)`): the result from those alone, or `nil` when `parse` needs the
    /// response (a body that does not decode, an empty body, text). Set by the JSON initialisers, the body-only parse
    /// initialiser, `TinyAPIEndpoint.endpoint(as:)` and `TinyAPIClient`; replacing `parse` drops it.
    @usableFromInline var parseWithoutResponse: (@Sendable (Data, String?) -> Result<A, any Error>?)?

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

    /// An endpoint with the same request and status codes whose parse result is transformed by `transform`.
    ///
    /// ```swift
    /// let names: Endpoint<[String]> = Endpoint<[User]>(json: .get, url: url).map { $0.map(\.name) }
    /// ```
    public func map<B>(_ transform: @escaping @Sendable (A) -> B) -> Endpoint<B> {
        compactMap { .success(transform($0)) }
    }

    /// An endpoint with the same request and status codes whose parse result is transformed by `transform`, which
    /// may fail.
    ///
    /// ```swift
    /// let first: Endpoint<User> = usersEndpoint.compactMap { users in
    ///     Result { guard let user = users.first else { throw NoUsers() }; return user }
    /// }
    /// ```
    public func compactMap<B>(_ transform: @escaping @Sendable (A) -> Result<B, any Error>) -> Endpoint<B> {
        var mapped = Endpoint<B>(request: request, expectedStatusCode: expectedStatusCode) { [parse] data, response in
            parse(data, response).flatMap(transform)
        }
        mapped.requestError = requestError
        if let parse = parseWithoutResponse {
            mapped.parseWithoutResponse = { data, type in parse(data, type).map { $0.flatMap(transform) } }
        }
        return mapped
    }
}

extension Endpoint: CustomStringConvertible {
    /// The method, the URL and the size of the body, for example `POST https://example.com/login (42 bytes)`.
    ///
    /// Never the body itself nor a header: a login endpoint's password stays out of logs. A URL password and secret
    /// query parameters are redacted with `HTTPRedaction.default`.
    public var description: String {
        let bytes = request.httpBody?.count ?? 0
        return HTTPRedaction.default.summary(of: request) + (bytes > 0 ? " (\(bytes) bytes)" : "")
    }
}

extension Endpoint: CustomReflectable {
    /// What `dump(_:)`, debuggers and test failures show: ``description`` and ``requestError``, never a header or the
    /// body (the stored `URLRequest`'s own mirror shows both, an `Authorization` header and a password in clear).
    public var customMirror: Mirror {
        Mirror(self, children: ["request": description, "requestError": requestError as Any], displayStyle: .struct)
    }
}
