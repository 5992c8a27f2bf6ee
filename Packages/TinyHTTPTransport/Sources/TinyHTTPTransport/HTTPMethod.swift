/// An HTTP request method: the common ones as constants, any other token by its name.
///
/// tinyAPI's upper-case spellings (`.GET`) are in `Compatibility+TinyAPI.swift`.
///
/// ```swift
/// let method: HTTPMethod = .post
/// let custom = HTTPMethod("PROPFIND")
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token as sent on the wire, for example `"GET"`.
    public let rawValue: String

    /// Creates a method from its token; the token is upper-cased, as HTTP methods conventionally are.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// Creates a method from its token.
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }

    /// Creates a method from a string literal.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// The method token.
    public var description: String { rawValue }

    /// `GET`.
    public static let get = HTTPMethod("GET")
    /// `POST`.
    public static let post = HTTPMethod("POST")
    /// `PUT`.
    public static let put = HTTPMethod("PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod("PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod("DELETE")
    /// `HEAD`.
    public static let head = HTTPMethod("HEAD")
    /// `OPTIONS`.
    public static let options = HTTPMethod("OPTIONS")
    /// `TRACE`.
    public static let trace = HTTPMethod("TRACE")
}
