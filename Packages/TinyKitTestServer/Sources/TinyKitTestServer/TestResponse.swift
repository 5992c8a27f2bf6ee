import Foundation

/// What a ``TestServer`` route answers: a status, headers and a body, optionally late or trickled.
///
/// ```swift
/// await server.route("GET /users") { _ in .json(200, #"[{"id": 1}]"#) }
/// await server.route("POST /users") { request in try .json(201, NewUser(id: 2)) }
/// await server.route("GET /slow") { _ in TestResponse.json(200, "{}").delayed(by: 2) }
/// ```
public struct TestResponse: Sendable {
    /// The status code, for example `200`.
    public var status: Int
    /// The response headers. `Content-Length` is added by the server.
    public var headers: [String: String]
    /// The body bytes.
    public var body: Data
    /// Seconds the server waits before it sends anything (the status line and headers included).
    public var delay: TimeInterval
    /// When set, the headers go out at once and then the body one byte at a time, one byte per this many seconds.
    public var byteInterval: TimeInterval?

    /// Creates a response.
    public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = 0
        self.byteInterval = nil
    }

    /// A response whose body is the given JSON text, sent as is, with `Content-Type: application/json`.
    public static func json(_ status: Int = 200, _ json: String, headers: [String: String] = [:]) -> TestResponse {
        TestResponse(
            status: status, headers: headers.merging(["Content-Type": "application/json"]) { mine, _ in mine },
            body: Data(json.utf8))
    }

    /// A response whose body is `object` encoded with a `JSONEncoder` (sorted keys), with
    /// `Content-Type: application/json`.
    ///
    /// A `String` argument picks ``json(_:_:headers:)-(Int,String,_)`` instead, which sends the text as is.
    public static func json(
        _ status: Int = 200, _ object: some Encodable, headers: [String: String] = [:]
    ) throws -> TestResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = try encoder.encode(object)
        return json(status, String(decoding: body, as: UTF8.self), headers: headers)
    }

    /// A plain-text response.
    public static func text(_ status: Int = 200, _ text: String, headers: [String: String] = [:]) -> TestResponse {
        TestResponse(
            status: status, headers: headers.merging(["Content-Type": "text/plain; charset=utf-8"]) { mine, _ in mine },
            body: Data(text.utf8))
    }

    /// A response without a body (for example `204` or `304`).
    public static func empty(_ status: Int = 204, headers: [String: String] = [:]) -> TestResponse {
        TestResponse(status: status, headers: headers)
    }

    /// A redirect to `location` (a path on the same server, or an absolute URL).
    public static func redirect(to location: String, status: Int = 302) -> TestResponse {
        TestResponse(status: status, headers: ["Location": location])
    }

    /// A JSON response whose body is gzip-compressed, with `Content-Encoding: gzip`.
    public static func gzippedJSON(_ status: Int = 200, _ json: String) -> TestResponse {
        TestResponse(
            status: status, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
            body: Gzip.encode(Data(json.utf8)))
    }

    /// A `401 Unauthorized` with `WWW-Authenticate: Basic realm="<realm>"` and a JSON body
    /// `{"error":"unauthorized"}`: the response FoundationNetworking on Linux hangs on without a session delegate.
    public static func unauthorized(realm: String = "test") -> TestResponse {
        json(401, #"{"error":"unauthorized"}"#, headers: ["WWW-Authenticate": #"Basic realm="\#(realm)""#])
    }

    /// This response, sent after waiting `seconds` (before the status line and headers).
    public func delayed(by seconds: TimeInterval) -> TestResponse {
        var copy = self
        copy.delay = seconds
        return copy
    }

    /// This response with its headers sent at once and then its body trickled, one byte per `interval` seconds.
    ///
    /// Use it to keep a response in flight for a while (for example to cancel it) while the server notices
    /// at once when the client goes away (see ``TestServer/waitForClosedConnections(atLeast:timeout:)``).
    public func trickled(byteInterval interval: TimeInterval) -> TestResponse {
        var copy = self
        copy.byteInterval = interval
        return copy
    }
}
