import Foundation
@_spi(TinyKit) import TinyHTTPTransport

/// What a mock route answers: a status code with headers and a body, or a failure.
///
/// ```swift
/// mock.register(.get, "/users", try .json([User(id: 1, name: "Ada")]))
/// mock.register(.delete, "/users/1", .status(204))
/// mock.register(.get, "/offline", .failure(URLError(.notConnectedToInternet)))
/// ```
public enum MockResponse: Sendable {
    /// A response with `status`, `headers` and an empty body (or `body`). A status no live transport answers with
    /// (an interim `1xx` but `101`, or one outside 100–999) fails the request instead, as `other`.
    case status(_ status: Int, headers: [String: String] = [:], body: Data = Data())

    /// No response at all: the request fails with `error`.
    ///
    /// The transport throws `HTTPTransportError`, mapped as `URLSessionTransport` maps its failures
    /// (`HTTPTransportError(mapping:request:)`): an `HTTPTransportError` as it is; a `URLError` with the matching
    /// code (`.notConnectedToInternet` → `cannotConnect`, `.timedOut` → `timedOut`, `.cancelled` → `cancelled`,
    /// others → `other`) and itself as `underlyingError`; any other error as `other`, as `underlyingError`.
    case failure(any Error)

    /// A response whose body is `text` in UTF-8 (`Content-Type: text/plain; charset=utf-8` unless `headers` says
    /// otherwise).
    public static func text(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> MockResponse {
        content(Data(text.utf8), type: "text/plain; charset=utf-8", status: status, headers: headers)
    }

    /// A response whose body is `json`, JSON text sent as it is, as it would come from a server
    /// (`Content-Type: application/json` unless `headers` says otherwise).
    ///
    /// A `String` argument always picks this overload: `.json("[]")` answers `[]`, not the JSON string `"[]"`.
    public static func json(_ json: String, status: Int = 200, headers: [String: String] = [:]) -> MockResponse {
        content(Data(json.utf8), type: "application/json", status: status, headers: headers)
    }

    /// A response whose body is `value` encoded as JSON (`Content-Type: application/json` unless `headers` says
    /// otherwise).
    ///
    /// - Throws: ``MockError/cannotEncode(type:reason:)`` when `encoder` fails, so a mock never silently answers
    ///   with an empty body.
    public static func json<Value: Encodable>(
        _ value: Value, status: Int = 200, headers: [String: String] = [:], encoder: JSONEncoder = JSONEncoder()
    ) throws -> MockResponse {
        do {
            return content(try encoder.encode(value), type: "application/json", status: status, headers: headers)
        } catch {
            throw MockError.cannotEncode(type: String(describing: Value.self), reason: "\(error)")
        }
    }

    /// A response with `body`, `status` and `headers`, plus `Content-Type: type` unless `headers` has a content
    /// type already.
    static func content(_ body: Data, type: String, status: Int, headers: [String: String]) -> MockResponse {
        .status(status, headers: headers.addingDefault("Content-Type", type), body: body)
    }
}
