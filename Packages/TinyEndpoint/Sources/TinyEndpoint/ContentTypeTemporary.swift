// TEMPORARY: TinyHTTPTransport's `ContentType` is being written in parallel; this stand-in is deleted once it lands.
/// A media type for the `Accept` and `Content-Type` headers.
public struct ContentType: RawRepresentable, Hashable, Sendable {
    /// The media type, for example `application/json`.
    public var rawValue: String
    /// Creates a content type from its media type.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `application/json`.
    public static let json = ContentType(rawValue: "application/json")
    /// `application/xml`.
    public static let xml = ContentType(rawValue: "application/xml")
}
