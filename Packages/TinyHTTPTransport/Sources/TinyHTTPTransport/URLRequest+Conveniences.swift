import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// Creates a request with a method, as TinyHTTP does: `URLRequest(method: .post, url: url)`.
    public init(method: HTTPMethod, url: URL) {
        self.init(url: url)
        self.httpMethod = method.rawValue
    }

    /// The request's method as an ``HTTPMethod`` (`GET` when none was set, as `URLSession` does).
    public var method: HTTPMethod {
        get { HTTPMethod(rawValue: httpMethod ?? "GET") }
        set { httpMethod = newValue.rawValue }
    }

    /// Sets a header field, replacing any value under the same name (compared case-insensitively).
    ///
    /// Unlike `setValue(_:forHTTPHeaderField:)`, which on Linux silently drops a value containing CR or LF (the
    /// request then goes out without that header), this keeps every value as given, so sending the request refuses
    /// it with an error naming the header (see ``validate()``) instead of losing it.
    ///
    /// ```swift
    /// request.setHeader("Authorization", "Bearer \(token)")
    /// ```
    public mutating func setHeader(_ name: String, _ value: String) {
        // The common case, a value without control characters (which Linux drops), goes through URLRequest's own
        // case-insensitive replacement.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return setValue(value, forHTTPHeaderField: name) }
        var fields = (allHTTPHeaderFields ?? [:]).filter { $0.key.caseInsensitiveCompare(name) != .orderedSame }
        fields[name] = value
        allHTTPHeaderFields = fields
    }

    /// Sets the `Accept` header: `request.httpAccept(.json)`.
    ///
    /// Like ``setHeader(_:_:)``, it keeps a custom value with CR or LF, which sending then refuses.
    public mutating func httpAccept(_ contentType: ContentType) {
        setHeader("Accept", contentType.rawValue)
    }

    /// Sets the `Content-Type` header: `request.httpContentType(.json)`.
    ///
    /// Like ``setHeader(_:_:)``, it keeps a custom value with CR or LF, which sending then refuses.
    public mutating func httpContentType(_ contentType: ContentType) {
        setHeader("Content-Type", contentType.rawValue)
    }
}
