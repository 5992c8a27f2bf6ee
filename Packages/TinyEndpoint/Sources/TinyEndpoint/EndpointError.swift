import Foundation
@_spi(TinyKit) import TinyHTTPTransport

/// A failure to build an endpoint's request or to turn its response into a value, with the evidence.
///
/// Transport failures and unacceptable status codes are `HTTPTransportError`s; everything between a response that
/// arrived with an accepted status and the value you asked for is an `EndpointError`:
///
/// ```swift
/// do {
///     let user = try await transport.load(Endpoint<User>(json: .get, url: url))
/// } catch let EndpointError.decodingFailed(type, codingPath, underlying, _) {
///     print("\(type) at \(codingPath): \(underlying)")
/// }
/// ```
public enum EndpointError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The response had no body, but a value of `type` needs one (an empty body is a success only for `()`,
    /// optional results, ``EmptyResponse`` and `String`, as `""`).
    case noData(type: String, response: HTTPURLResponse?)
    /// The body could not be decoded as `type`: `codingPath` says where (for example `users[2].name`), `underlying`
    /// is the decoder's error (usually a `DecodingError`), `body` the bytes that failed.
    case decodingFailed(type: String, codingPath: String, underlying: any Error, body: Data)
    /// A request body of `type` could not be encoded; nothing was sent.
    case encodingFailed(type: String, codingPath: String, underlying: any Error)
    /// A URL could not be built from `url`; `reason` says why. Nothing was sent.
    case invalidURL(String, reason: String)
    /// The response was not an HTTP response (or missing), so it could not be validated or decoded.
    case notHTTPResponse
    /// The response was expected to be empty (``EndpointExpectation/emptyResponse(_:_:)``) but had a body.
    case unexpectedBody(Data)
    /// JSON was expected, but the response's `Content-Type` names another media type (the value given, for example
    /// `text/html; charset=utf-8`); nothing was decoded. `body` is the bytes that came. JSON is `application/json`,
    /// `text/json` or any `…+json`; a response without a `Content-Type` is decoded. For a server that mislabels its
    /// JSON, pass `checksContentType: false`.
    case unexpectedContentType(String, body: Data)

    /// ``description`` without the body, so `localizedDescription` (and UI or a log built on it) says what happened
    /// and shows no server data.
    public var errorDescription: String? { summary }

    /// One line saying what went wrong and where, with a preview of the body when there is one.
    public var description: String {
        switch self {
        case .decodingFailed(_, _, _, let body), .unexpectedBody(let body), .unexpectedContentType(_, let body):
            "\(summary); body: \(HTTPRedaction.preview(of: body))"
        default: summary
        }
    }

    /// ``description`` without the body, for a message that may be shown or logged where a body must not go.
    var summary: String {
        switch self {
        case .noData(let type, let response):
            "no data: the response had no body to decode as \(type)"
                + (response.map { " (status \($0.statusCode))" } ?? "")
        case .decodingFailed(let type, let codingPath, let underlying, _):
            "could not decode \(type) at \(codingPath): \(Self.context(of: underlying).message)"
        case .encodingFailed(let type, let codingPath, let underlying):
            "could not encode the request body \(type) at \(codingPath): \(Self.context(of: underlying).message)"
        case .invalidURL(let url, let reason): "invalid URL \(Self.quoted(Self.shown(url))): \(reason)"
        case .notHTTPResponse: "the response is not an HTTP response"
        case .unexpectedBody(let body): "expected an empty response, got \(body.count) bytes"
        case .unexpectedContentType(let contentType, _):
            "expected a JSON response, got Content-Type \(Self.quoted(contentType))"
        }
    }

    /// `url` as given, unless it holds a secret (a password or user-name token, a secret query parameter, a
    /// fragment): then redacted. Text that does not parse as a URL is shown only when it cannot hold one (no `@`,
    /// `?` or `#`).
    static func shown(_ url: String) -> String {
        guard let parsed = URL(string: url) else { return url.contains(where: "@?#".contains) ? "***" : url }
        // Without `//` (the mistake this error often reports) `user:password@host` parses as a path: not redacted.
        // Nor with a scheme typed without its colon (`https//user:password@host`): there, after a `//`.
        let rest = url.firstRange(of: /^[A-Za-z][A-Za-z0-9+.\-]*:/).map { url[$0.upperBound...] } ?? url[...]
        let path = rest.prefix { !"?#".contains($0) }
        let authorities = [path[...]] + path.ranges(of: "//").map { path[$0.upperBound...] }
        if parsed.host == nil,
            authorities.contains(where: { $0.drop { $0 == "/" }.prefix { $0 != "/" }.contains("@") })
        {
            return "***"
        }
        let redacted = HTTPRedaction.default.redacted(url: parsed)
        return redacted == parsed.absoluteString ? url : redacted
    }

    /// Wraps an error thrown while encoding a request body of `type`.
    static func encoding(_ type: Any.Type, _ error: any Error) -> EndpointError {
        .encodingFailed(type: "\(type)", codingPath: codingPath(of: error), underlying: error)
    }

    /// The coding path of a `DecodingError` or `EncodingError` as `a.b[2].c`, or `(top level)`. A key that is empty
    /// or holds `.`, `[`, `]`, `"`, `\`, a control character or a line separator is quoted and escaped
    /// (`["a.b"].c`): it would read as another path, or break the message's line.
    static func codingPath(of error: any Error) -> String {
        let path = context(of: error).codingPath.reduce(into: "") { text, key in
            // An array position is the coders' "Index n" key; a dictionary key that reads as a number ("42", "007")
            // has an `intValue` too, but is a name.
            let index = key.intValue.flatMap { key.stringValue == "Index \($0)" ? $0 : nil }
            let (name, quoted) = (key.stringValue, Self.quoted(key.stringValue))
            let plain = !name.isEmpty && quoted.dropFirst().dropLast() == name && !name.contains(where: ".[]".contains)
            text += index.map { "[\($0)]" } ?? (plain ? (text.isEmpty ? "" : ".") + name : "[\(quoted)]")
        }
        return path.isEmpty ? "(top level)" : path
    }

    /// `text` in double quotes on one line: its quotes and backslashes escaped, and what a body preview escapes
    /// (control characters, line separators).
    static func quoted(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"" + oneLine(escaped) + "\""
    }

    /// `text` with what a body preview escapes escaped (control characters, line separators).
    static func oneLine(_ text: String) -> String {
        text.isEmpty ? "" : HTTPRedaction.preview(of: Data(text.utf8), limit: .max)
    }

    /// The coding path of a `DecodingError` or `EncodingError` (empty for other errors), and the coder's own message
    /// without it, on one line: it can name a value the server sent (an enum's raw value).
    static func context(of error: any Error) -> (codingPath: [any CodingKey], message: String) {
        let (codingPath, message): ([any CodingKey], String) =
            switch error {
            case DecodingError.typeMismatch(let type, let context):
                (context.codingPath, "type mismatch, expected \(type): \(context.debugDescription)")
            case DecodingError.valueNotFound(let type, let context):
                (context.codingPath, "value of type \(type) not found: \(context.debugDescription)")
            case DecodingError.keyNotFound(let key, let context):
                (context.codingPath + [key], "key \"\(key.stringValue)\" not found")
            case DecodingError.dataCorrupted(let context): (context.codingPath, context.debugDescription)
            case EncodingError.invalidValue(_, let context): (context.codingPath, context.debugDescription)
            default: ([], String(describing: error))
            }
        return (codingPath, oneLine(message))
    }
}
