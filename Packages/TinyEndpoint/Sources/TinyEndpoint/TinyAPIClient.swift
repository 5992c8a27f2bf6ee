import Foundation
@_spi(TinyKit) import TinyHTTPTransport

/// The live tinyAPI client: sends ``TinyAPIEndpoint``s over an `HTTPTransport` and decodes JSON responses.
///
/// ```swift
/// let apiClient = TinyAPIClient()
/// let users = try await apiClient.get(from: "https://api.example.com", path: "/users", as: [User].self)
/// let user = try await apiClient.request(UserEndpoint.detail(id: 1), as: User.self)
/// ```
///
/// A client builds each distinct request without a body once (URL and headers; see ``TinyAPIEndpoint/makeRequest()``)
/// and sends it again when an endpoint with the same parts comes back; its copies share what it built.
///
/// Every method throws ``TinyAPIError``, whose ``TinyAPIError/underlyingError`` keeps the typed error (status,
/// response and body; decoding type and coding path; the transport's error). Decoding never runs on the main
/// actor. Inject a transport (TinyMocks' mock, a logging or retrying middleware) and a decoder and encoder
/// configured for your API:
///
/// ```swift
/// let decoder = JSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// let client = TinyAPIClient(transport: transport, decoder: decoder)
/// ```
public struct TinyAPIClient: APIClientProtocol, Sendable {
    /// The transport every request goes through.
    public var transport: any HTTPTransport
    /// The decoder for response bodies.
    public var decoder: JSONDecoder
    /// The encoder for the bodies of `post` and `send`.
    public var encoder: JSONEncoder
    /// Whether a response whose `Content-Type` is not JSON is refused before decoding.
    @usableFromInline let checksContentType: Bool
    /// The requests without a body this client built, by the parts of the endpoints they were built from (an app
    /// sends the same few calls again and again, and parsing and checking a URL and setting headers cost a client
    /// more than the rest of its work on a request), shared by its copies. A different base URL, path, method, header
    /// or query item is a different request. A request with a body is built each time: bodies differ from call to
    /// call, and one kept could be large. At most 64 are kept, each under its endpoint's parts as an
    /// `AdHocAPIEndpoint` without a body.
    let requests = Locked([AdHocAPIEndpoint: URLRequest]())

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - transport: The transport; by default the shared live `URLSessionTransport`.
    ///   - decoder: The decoder for response bodies.
    ///   - encoder: The encoder for request bodies.
    ///   - checksContentType: Whether ``request(_:as:)`` refuses a response whose `Content-Type` is not JSON
    ///     (`application/json`, `text/json`, `…+json`; none is fine) before decoding it: a
    ///     ``TinyAPIError/Kind/decodingError(_:)`` keeping ``EndpointError/unexpectedContentType(_:body:)``. Pass
    ///     `false` for a server that labels its JSON as something else.
    public init(
        transport: any HTTPTransport = URLSessionTransport.shared, decoder: JSONDecoder = JSONDecoder(),
        encoder: JSONEncoder = JSONEncoder(), checksContentType: Bool = true
    ) {
        self.transport = transport
        self.decoder = decoder
        self.encoder = encoder
        self.checksContentType = checksContentType
    }

    /// The live client on the shared `URLSessionTransport`, with default JSON coders.
    public static let live = TinyAPIClient()

    /// Sends the endpoint's request and decodes the JSON response as `T`.
    ///
    /// An empty body decodes as `nil` for an optional `T` and as ``EmptyResponse``; for other types it is
    /// ``TinyAPIError/Kind/noData``. A `String` is the body as text (in the `Content-Type`'s charset, UTF-8 by
    /// default), or the JSON string from a response labelled JSON.
    ///
    /// - Throws: ``TinyAPIError``.
    @inlinable
    public func request<T: Decodable & Sendable>(_ endpoint: any TinyAPIEndpoint, as type: T.Type) async throws -> T {
        try await load(endpoint) { Endpoint(request: $0, decoder: decoder, checksContentType: checksContentType) }
    }

    /// Sends the endpoint's request and returns the response body as it came (empty when there was none).
    ///
    /// - Throws: ``TinyAPIError``, ``TinyAPIError/Kind/httpError(_:)`` for a status outside 200–299.
    public func requestData(_ endpoint: any TinyAPIEndpoint) async throws -> Data {
        try await load(endpoint) { request in
            var loaded = Endpoint(request: request) { data, _ in .success(data ?? Data()) }
            loaded.parseWithoutResponse = { data, _ in .success(data) }
            return loaded
        }
    }

    /// Loads the endpoint's request (built once, see ``requests``) as the endpoint `make` makes of it: every failure
    /// becomes a ``TinyAPIError``.
    /// (Inlinable, with ``request(_:as:)`` and `HTTPTransport.load(_:)`: an app's call is specialised for its type, with
    /// no metadata lookups or value-witness calls for `Endpoint<T>`, and no asynchronous frame of its own.)
    @inlinable
    func load<T>(_ endpoint: any TinyAPIEndpoint, _ make: (URLRequest) -> Endpoint<T>) async throws -> T {
        do { return try await transport.load(make(request(for: endpoint))) } catch {
            throw TinyAPIError(error)
        }
    }

    /// `endpoint`'s request, as ``TinyAPIEndpoint/makeRequest()`` builds it: one without a body from ``requests``.
    @usableFromInline func request(for endpoint: some TinyAPIEndpoint) throws -> URLRequest {
        let body = Result { try endpoint.body }
        guard case .success(nil) = body else { return try endpoint.makeRequest(body: body) }
        let parts = AdHocAPIEndpoint(
            baseURL: endpoint.baseURL, path: endpoint.path, method: endpoint.method, headers: endpoint.headers,
            queryItems: endpoint.queryItems)
        if let request = requests.withLock({ $0[parts] }) { return request }
        let request = try endpoint.makeRequest(body: body)
        requests.withLock { requests in
            if requests.count >= 64 { requests.removeAll() }
            requests[parts] = request
        }
        return request
    }

    /// Encodes a request body with ``encoder``.
    ///
    /// - Throws: ``TinyAPIError`` of kind ``TinyAPIError/Kind/encodingError(_:)``.
    public func encode<Body: Encodable>(body: Body) throws -> Data {
        try encoder.tinyAPIBody(body)
    }

}
