/// A media type for the `Accept` and `Content-Type` headers: JSON as a constant, any other by its text.
///
/// ```swift
/// request.httpAccept(.json)
/// request.httpContentType("application/x-www-form-urlencoded")
/// ```
public struct ContentType: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The header value, for example `"application/json"`.
    public let rawValue: String

    /// Creates a content type from its header value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a content type from a string literal.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// The header value.
    public var description: String { rawValue }

    /// `application/json`.
    public static let json = ContentType(rawValue: "application/json")
}
