/// A media type for the `Accept` and `Content-Type` headers: the common ones as constants, any other by its
/// text.
///
/// ```swift
/// request.httpAccept(.json)
/// request.httpContentType(ContentType(rawValue: "application/vnd.api+json"))
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
    /// `application/x-www-form-urlencoded`.
    public static let urlencoded = ContentType(rawValue: "application/x-www-form-urlencoded")
    /// `text/plain`.
    public static let plainText = ContentType(rawValue: "text/plain")
}
