/// An HTTP request method: the common ones as constants, any other token by its name.
///
/// tinyAPI's upper-case spellings (`.GET`) are in `Compatibility+TinyAPI.swift`.
///
/// ```swift
/// let method: HTTPMethod = .post
/// let options: HTTPMethod = "OPTIONS"           // any other method, as a string literal
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token as sent on the wire, for example `"GET"`.
    public let rawValue: String

    /// Creates a method from its token; the token is upper-cased, as HTTP methods conventionally are.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// Creates a method from a string literal.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// The method token.
    public var description: String { rawValue }

    /// `GET`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `POST`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `HEAD`.
    public static let head = HTTPMethod(rawValue: "HEAD")
}
