import Foundation

extension URLRequest {
    /// Creates a request with a method, as TinyHTTP does: `URLRequest(method: .post, url: url)`.
    public init(method: HTTPMethod, url: URL) {
        self.init(url: url)
        if method != .get { httpMethod = method.rawValue }  // GET is a new request's method: skip the copy
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
        // Through the whole dictionary, which keeps values as given; on Linux it is also several times cheaper than
        // `setValue(_:forHTTPHeaderField:)`, which capitalises the name and searches the fields again. Names of
        // another length are not compared (a field name is ASCII, and `caseInsensitiveCompare` goes through NSString).
        let length = name.utf8.count
        var fields = (allHTTPHeaderFields ?? [:]).filter {
            $0.key.utf8.count != length || $0.key.caseInsensitiveCompare(name) != .orderedSame
        }
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

extension [String: String] {
    /// These header fields with `value` under `name`, unless a field of that name (compared case-insensitively) is
    /// there already: a default that never overrides what the caller gave.
    @_spi(TinyKit) public func addingDefault(_ name: String, _ value: String) -> Self {
        keys.contains { $0.caseInsensitiveCompare(name) == .orderedSame } ? self : merging([name: value]) { $1 }
    }
}
