import Foundation
@_spi(TinyKit) import TinyHTTPTransport

/// An API call described by its parts (tinyAPI's style), usually one case of an enum per call.
///
/// ```swift
/// enum UserEndpoint: TinyAPIEndpoint {
///     case list
///     case detail(id: Int)
///
///     var baseURL: String { "https://api.example.com/v1" }
///     var path: String {
///         switch self {
///         case .list: "/users"
///         case .detail(let id): "/users/\(id)"
///         }
///     }
///     var method: HTTPMethod { .GET }
/// }
///
/// let users = try await TinyAPIClient.live.request(UserEndpoint.list, as: [User].self)
/// ```
///
/// ``headers``, ``queryItems`` and ``body`` default to `nil`. Any endpoint converts to an ``Endpoint`` with
/// ``endpoint(as:decoder:checksContentType:)``, so it can be loaded on any transport, shared or mocked like every other endpoint.
public protocol TinyAPIEndpoint: Sendable {
    /// The server's base URL, for example `https://api.example.com/v1`; a path in it is kept.
    var baseURL: String { get }
    /// The path appended to the base URL's path, for example `/users/1` (not percent-encoded: a space is sent as
    /// `%20`, a `?` or `#` as `%3F` or `%23`: a query goes in ``queryItems``). An absolute URL
    /// (`https://other.example/x`) is refused, never appended.
    var path: String { get }
    /// The HTTP method.
    var method: HTTPMethod { get }
    /// Headers to send; they override the default `Accept` and `Content-Type`.
    var headers: [String: String]? { get }
    /// Query items appended, in order, after those of the base URL.
    var queryItems: [URLQueryItem]? { get }
    /// The request body, sent with `Content-Type: application/json` (unless ``headers`` say otherwise).
    ///
    /// The getter may throw, so an encoding failure stops the request instead of sending it without its body
    /// (tinyAPI discards the encoder's error with `try?`, and the request goes out with no body and no word):
    ///
    /// ```swift
    /// var body: Data? {
    ///     get throws {
    ///         switch self {
    ///         case .create(let user): try JSONEncoder().encode(user)
    ///         default: nil
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// An error thrown here reaches the caller of ``makeRequest()`` as
    /// ``EndpointError/encodingFailed(type:codingPath:underlying:)`` naming the endpoint's type.
    var body: Data? { get throws }
}

extension TinyAPIEndpoint {
    /// No headers beyond the defaults.
    public var headers: [String: String]? { nil }
    /// No query items.
    public var queryItems: [URLQueryItem]? { nil }
    /// No body.
    public var body: Data? { nil }

    /// The request for this endpoint.
    ///
    /// The URL is the base URL with ``path`` appended to its path (`https://x/api/v4` + `/users` is
    /// `https://x/api/v4/users`) and ``queryItems`` appended to its query, percent-encoded. The request accepts
    /// JSON; it has `Content-Type: application/json` only when it has a body. ``headers`` come last and win.
    ///
    /// - Throws: ``EndpointError/invalidURL(_:reason:)`` naming ``baseURL`` when it is not an absolute URL, or naming
    ///   ``path`` when it is an absolute URL itself (`https://other.example/x`, never appended to the base URL) or
    ///   has a `.` or `..` segment (URLSession would remove it and leave the base URL's path);
    ///   ``EndpointError/encodingFailed(type:codingPath:underlying:)`` when ``body`` throws.
    public func makeRequest() throws -> URLRequest { try makeRequest(body: Result { try body }) }

    /// ``makeRequest()`` with ``body`` read already.
    func makeRequest(body read: Result<Data?, any Error>) throws -> URLRequest {
        guard var components = URLComponents(string: baseURL) else {
            // A stray space or line feed (a value read from a file) is the usual cause.
            throw EndpointError.invalidURL(baseURL, reason: "the base URL is not a valid URL")
        }
        guard components.scheme != nil, components.host?.isEmpty == false else {
            throw EndpointError.invalidURL(baseURL, reason: "the base URL needs a scheme and a host")
        }
        if let port = components.port, !(0...65_535).contains(port) {
            throw EndpointError.invalidURL(baseURL, reason: "the port \(port) is not between 0 and 65535")
        }
        // An absolute URL as the path would be appended to the base URL's path as text: refuse it.
        let scheme = path.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
        if scheme.first?.isLetter == true, path.dropFirst(scheme.count).hasPrefix("://") {
            throw EndpointError.invalidURL(
                path, reason: "the path is an absolute URL; put its scheme and host in the base URL")
        }
        // URLSession removes dot segments, so "../admin" would leave the base URL's path: refuse them. Split by
        // scalars: a combining mark after `/` joins it into one Character, hiding the segment from a Character split.
        let dots = path.unicodeScalars.split(separator: "/").map(String.init).first { $0 == "." || $0 == ".." }
        if let dots {
            throw EndpointError.invalidURL(
                path, reason: "the path has a \"\(dots)\" segment, which would leave the base URL's path")
        }
        components.append(path: path, queryItems: queryItems ?? [])
        guard let url = components.url else {
            throw EndpointError.invalidURL(baseURL, reason: "the base URL and path do not form a URL")
        }
        var request = URLRequest(method: method, url: url)
        request.httpAccept(.json)
        if let body = try read.mapError({ $0 as? EndpointError ?? .encoding(Self.self, $0) }).get() {
            request.httpBody = body
            request.httpContentType(.json)
        }
        for (name, value) in headers ?? [:] { request.setHeader(name, value) }
        return request
    }

    /// This call as an ``Endpoint`` that decodes a JSON response as `T`, to load on any transport or share.
    ///
    /// ```swift
    /// let endpoint = try UserEndpoint.list.endpoint(as: [User].self)
    /// let users = try await transport.load(endpoint)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The result type; `String` is the body as text, or the JSON string from a response labelled JSON.
    ///   - decoder: The decoder for the response.
    ///   - checksContentType: Whether a response whose `Content-Type` is not JSON is refused before decoding, with
    ///     ``EndpointError/unexpectedContentType(_:body:)``; `false` for a server that mislabels its JSON.
    /// - Throws: What ``makeRequest()`` throws: ``EndpointError/invalidURL(_:reason:)`` when the URL cannot be
    ///   built, ``EndpointError/encodingFailed(type:codingPath:underlying:)`` when ``body`` throws.
    public func endpoint<T: DecodableResult>(
        as type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder(), checksContentType: Bool = true
    ) throws -> Endpoint<T> {
        Endpoint(request: try makeRequest(), decoder: decoder, checksContentType: checksContentType)
    }
}

/// A request described on the spot, for the `get`, `post`, … conveniences of ``APIClientProtocol``; without a body,
/// also the key of a request a ``TinyAPIClient`` keeps.
struct AdHocAPIEndpoint: TinyAPIEndpoint, Hashable {
    var baseURL: String
    var path: String
    var method: HTTPMethod
    var headers: [String: String]?
    var queryItems: [URLQueryItem]?
    var body: Data?

    /// The base URL, the path and the query values: they tell calls apart (`==` compares every part), so that a
    /// search with another term or a second server keeps its own slot. Each is hashed as a `String`, which agrees with
    /// `==` (a byte count would not: `é` has two spellings).
    func hash(into hasher: inout Hasher) {
        hasher.combine(baseURL)
        hasher.combine(path)
        for item in queryItems ?? [] { hasher.combine(item.value) }
    }
}
