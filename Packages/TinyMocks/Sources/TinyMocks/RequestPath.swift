import Foundation

/// A request URL's path as decoded segments, after a base path is taken off.
struct RequestPath: Sendable, Equatable {
    /// The decoded segments: `/projects/a%2Fb/` is `["projects", "a/b"]`.
    var segments: [String]

    /// The segments of `url`'s path, without the leading `basePath` segments when the path starts with them.
    init(url: URL, basePath: [String]) throws {
        let encoded = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        let all = try Self.segments(ofPercentEncoded: encoded)
        segments = all.starts(with: basePath) ? Array(all.dropFirst(basePath.count)) : all
    }

    /// The segments of a route's or base path's path, written as in a URL (`"/users/1"`, `"api/v4"`).
    init(pattern: String) {
        segments = (try? Self.segments(ofPercentEncoded: pattern)) ?? Self.rawSegments(of: pattern)
    }

    /// The path again, for messages: `/users/1`.
    var description: String { "/" + segments.joined(separator: "/") }

    /// The non-empty segments of a percent-encoded path, decoded.
    ///
    /// - Throws: ``MockError/unsafePath(path:reason:)`` for invalid percent-encoding.
    static func segments(ofPercentEncoded path: String) throws -> [String] {
        try rawSegments(of: path).map { segment in
            guard let decoded = segment.removingPercentEncoding else {
                throw MockError.unsafePath(path: path, reason: "\"\(segment)\" is not valid percent-encoding")
            }
            return decoded
        }
    }

    private static func rawSegments(of path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }
}
