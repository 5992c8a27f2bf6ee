import Foundation
@_spi(TinyKit) import TinyHTTPTransport

/// What every tinyAPI-style client does — the live ``TinyAPIClient`` and TinyMocks' `MockTinyAPIClient` — so a
/// feature holds `any APIClientProtocol` and tests swap the client.
///
/// Conform by implementing ``request(_:as:)`` and ``requestData(_:)``; the conveniences ``get(from:path:queryItems:headers:as:)``,
/// ``post(to:path:body:headers:as:)``, ``send(_:to:path:body:headers:as:)`` (`PUT`, `PATCH`) and
/// ``delete(from:path:headers:as:)`` come with the protocol and work on `any APIClientProtocol`.
///
/// ```swift
/// struct APIClientDependency {
///     let client: any APIClientProtocol
///     static let live = APIClientDependency(client: TinyAPIClient.live)
/// }
/// let posts = try await APIClientDependency.live.client.get(from: baseURL, path: "/posts", as: [Post].self)
/// ```
public protocol APIClientProtocol: Sendable {
    /// Sends the endpoint's request and decodes the JSON response as `T`.
    ///
    /// - Throws: ``TinyAPIError``.
    func request<T: Decodable & Sendable>(_ endpoint: any TinyAPIEndpoint, as type: T.Type) async throws -> T

    /// Sends the endpoint's request and returns the response body as it came (empty when there was none).
    ///
    /// - Throws: ``TinyAPIError``.
    func requestData(_ endpoint: any TinyAPIEndpoint) async throws -> Data

    /// Encodes a request body for the `post` and `send` conveniences.
    ///
    /// The default uses a plain `JSONEncoder`; ``TinyAPIClient`` uses its own encoder.
    ///
    /// - Throws: ``TinyAPIError`` of kind ``TinyAPIError/Kind/encodingError(_:)``.
    func encode<Body: Encodable>(body: Body) throws -> Data
}

extension APIClientProtocol {
    /// Encodes `body` with a plain `JSONEncoder`, throwing a ``TinyAPIError`` that keeps the ``EndpointError``.
    public func encode<Body: Encodable>(body: Body) throws -> Data {
        try JSONEncoder().tinyAPIBody(body)
    }

    /// Sends a `GET` request to `baseURL` + `path` and decodes the JSON response as `T`.
    ///
    /// ```swift
    /// let users = try await client.get(from: "https://api.example.com", path: "/users", as: [User].self)
    /// ```
    ///
    /// - Parameters:
    ///   - baseURL: The server's base URL; a path in it is kept.
    ///   - path: The path appended to it.
    ///   - queryItems: Query items appended to the URL.
    ///   - headers: Headers to send.
    ///   - type: The result type.
    /// - Throws: ``TinyAPIError``.
    public func get<T: Decodable & Sendable>(
        from baseURL: String, path: String, queryItems: [URLQueryItem]? = nil, headers: [String: String]? = nil,
        as type: T.Type
    ) async throws -> T {
        try await request(
            AdHocAPIEndpoint(baseURL: baseURL, path: path, method: .get, headers: headers, queryItems: queryItems),
            as: type)
    }

    /// Sends `body` as JSON with a `POST` request and decodes the JSON response as `T`.
    ///
    /// ```swift
    /// let user = try await client.post(to: baseURL, path: "/users", body: NewUser(name: "Ada"), as: User.self)
    /// ```
    ///
    /// A `Data` or `String` body is sent as it is, not encoded: `Data` with `Content-Type: application/octet-stream`,
    /// `String` as UTF-8 with `text/plain; charset=utf-8`, unless `headers` name another.
    ///
    /// - Parameters:
    ///   - baseURL: The server's base URL; a path in it is kept.
    ///   - path: The path appended to it.
    ///   - body: The value sent as JSON, encoded by ``encode(body:)``; `Data` or `String` as it is.
    ///   - headers: Headers to send.
    ///   - type: The result type.
    /// - Throws: ``TinyAPIError``; nothing is sent when the body cannot be encoded.
    public func post<Body: Encodable, T: Decodable & Sendable>(
        to baseURL: String, path: String, body: Body, headers: [String: String]? = nil, as type: T.Type
    ) async throws -> T {
        try await send(.post, to: baseURL, path: path, body: body, headers: headers, as: type)
    }

    /// Sends a `DELETE` request and decodes the JSON response as `T` (use ``EmptyResponse`` or an optional for
    /// an empty one).
    ///
    /// - Parameters:
    ///   - baseURL: The server's base URL; a path in it is kept.
    ///   - path: The path appended to it.
    ///   - headers: Headers to send.
    ///   - type: The result type.
    /// - Throws: ``TinyAPIError``.
    public func delete<T: Decodable & Sendable>(
        from baseURL: String, path: String, headers: [String: String]? = nil, as type: T.Type
    ) async throws -> T {
        try await request(AdHocAPIEndpoint(baseURL: baseURL, path: path, method: .delete, headers: headers), as: type)
    }

    /// Sends `body` as JSON with `method` and decodes the JSON response as `T`: ``post(to:path:body:headers:as:)``
    /// for the other methods that carry a body, `PUT` and `PATCH` (Apple's `URLSession` refuses a `GET` with a body).
    ///
    /// ```swift
    /// let user = try await client.send(.put, to: baseURL, path: "/users/1", body: user, as: User.self)
    /// ```
    ///
    /// A `Data` or `String` body is sent as it is, not encoded, as with ``post(to:path:body:headers:as:)``.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - baseURL: The server's base URL; a path in it is kept.
    ///   - path: The path appended to it.
    ///   - body: The value sent as JSON, encoded by ``encode(body:)``; `Data` or `String` as it is.
    ///   - headers: Headers to send.
    ///   - type: The result type.
    /// - Throws: ``TinyAPIError``; nothing is sent when the body cannot be encoded.
    public func send<Body: Encodable, T: Decodable & Sendable>(
        _ method: HTTPMethod, to baseURL: String, path: String, body: Body, headers: [String: String]? = nil,
        as type: T.Type
    ) async throws -> T {
        var endpoint = AdHocAPIEndpoint(baseURL: baseURL, path: path, method: method, headers: headers)
        if let (raw, contentType) = rawRequestBody(body) {
            endpoint.body = raw
            endpoint.headers = (headers ?? [:]).addingDefault("Content-Type", contentType.rawValue)
        } else {
            endpoint.body = try encode(body: body)
        }
        return try await request(endpoint, as: type)
    }
}

extension JSONEncoder {
    /// `body` encoded for a tinyAPI client: a failure is a ``TinyAPIError`` that keeps the ``EndpointError`` naming
    /// the body's type and the coding path.
    func tinyAPIBody<Body: Encodable>(_ body: Body) throws -> Data {
        do { return try encode(body) } catch { throw TinyAPIError(EndpointError.encoding(Body.self, error)) }
    }
}
