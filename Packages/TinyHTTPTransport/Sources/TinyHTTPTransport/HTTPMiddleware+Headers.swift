import Foundation

extension HTTPMiddleware {
    /// Adds headers to every request that does not set them already.
    ///
    /// ```swift
    /// let transport = URLSessionTransport.shared.with(.defaultHeaders(["Accept-Language": "de", "X-Client": "ios"]))
    /// ```
    ///
    /// - Parameters:
    ///   - headers: The header names and values to add. Names are compared case-insensitively.
    ///   - overriding: `false` (the default) keeps the value a request already has; `true` replaces it.
    public static func defaultHeaders(_ headers: [String: String], overriding: Bool = false) -> HTTPMiddleware {
        HTTPMiddleware { request, next in
            var request = request
            for (name, value) in headers where overriding || request.value(forHTTPHeaderField: name) == nil {
                request.setHeader(name, value)
            }
            return try await next.send(request)
        }
    }
}
