import Foundation
import TinyHTTPTransport

/// What a mock route answers: a status code with headers and a body, or a failure.
///
/// ```swift
/// mock.register(.get, "/users", try .json([User(id: 1, name: "Ada")]))
/// mock.register(.delete, "/users/1", .status(204))
/// mock.register(.get, "/offline", .failure(URLError(.notConnectedToInternet)))
/// ```
public struct MockResponse: Sendable {
    enum Outcome: Sendable {
        case response(status: Int, headers: [String: String], body: Data)
        case failure(any Error)
    }

    let outcome: Outcome

    /// A response with `status`, `headers` and `body`.
    init(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
        outcome = .response(status: status, headers: headers, body: body)
    }

    /// A response with `status`, `headers` and an empty body (or `body`).
    public static func status(_ status: Int, headers: [String: String] = [:], body: Data = Data()) -> MockResponse {
        MockResponse(status: status, headers: headers, body: body)
    }

    /// A response whose body is `text` in UTF-8 (`Content-Type: text/plain; charset=utf-8` unless `headers` says
    /// otherwise).
    public static func text(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> MockResponse {
        MockResponse(
            status: status, headers: headers.withDefault(contentType: "text/plain; charset=utf-8"),
            body: Data(text.utf8))
    }

    /// A response whose body is `json`, JSON text sent as it is, as it would come from a server
    /// (`Content-Type: application/json` unless `headers` says otherwise).
    ///
    /// A `String` argument always picks this overload: `.json("[]")` answers `[]`, not the JSON string `"[]"`.
    public static func json(_ json: String, status: Int = 200, headers: [String: String] = [:]) -> MockResponse {
        MockResponse(
            status: status, headers: headers.withDefault(contentType: "application/json"), body: Data(json.utf8))
    }

    /// A response whose body is `value` encoded as JSON (`Content-Type: application/json` unless `headers` says
    /// otherwise).
    ///
    /// - Throws: ``MockError/cannotEncode(type:reason:)`` when `encoder` fails, so a mock never silently answers
    ///   with an empty body.
    public static func json<Value: Encodable>(
        _ value: Value, status: Int = 200, headers: [String: String] = [:], encoder: JSONEncoder = JSONEncoder()
    ) throws -> MockResponse {
        let body: Data
        do {
            body = try encoder.encode(value)
        } catch {
            throw MockError.cannotEncode(type: String(describing: Value.self), reason: "\(error)")
        }
        return MockResponse(status: status, headers: headers.withDefault(contentType: "application/json"), body: body)
    }

    /// No response at all: the request fails with `error`.
    ///
    /// The transport throws `HTTPTransportError`, mapped as `URLSessionTransport` maps its failures
    /// (`HTTPTransportError(mapping:request:)`): an `HTTPTransportError` as it is; a `URLError` with the matching
    /// code (`.notConnectedToInternet` → `cannotConnect`, `.timedOut` → `timedOut`, `.cancelled` → `cancelled`,
    /// others → `other`) and itself as `underlyingError`; any other error as `other`, as `underlyingError`.
    public static func failure(_ error: any Error) -> MockResponse {
        MockResponse(outcome: .failure(error))
    }

    private init(outcome: Outcome) { self.outcome = outcome }
}

extension Dictionary where Key == String, Value == String {
    /// These headers, with `Content-Type: contentType` added unless a content type is already set.
    func withDefault(contentType: String) -> [String: String] {
        if keys.contains(where: { $0.caseInsensitiveCompare("Content-Type") == .orderedSame }) { return self }
        return merging(["Content-Type": contentType]) { old, _ in old }
    }
}
