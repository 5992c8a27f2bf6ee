import Foundation

extension URL {
    /// This URL with `items` appended after its own query items, each name and value percent-encoded so that only
    /// unreserved characters stay literal (a `+` is sent as `%2B`, not read as a space by the server).
    ///
    /// - Throws: ``EndpointError/invalidURL(_:reason:)`` when the URL cannot be split into components.
    func appendingEncodedQueryItems(_ items: [URLQueryItem]) throws(EndpointError) -> URL {
        guard !items.isEmpty else { return self }
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else {
            throw .invalidURL(absoluteString, reason: "it cannot be split into components")
        }
        let added = items.map { item in
            Self.encodeQueryPart(item.name) + (item.value.map { "=" + Self.encodeQueryPart($0) } ?? "")
        }
        let existing = components.percentEncodedQuery.map { $0.isEmpty ? [] : [$0] } ?? []
        components.percentEncodedQuery = (existing + added).joined(separator: "&")
        guard let url = components.url else {
            throw .invalidURL(absoluteString, reason: "the query \(items) does not form a URL")
        }
        return url
    }

    /// RFC 3986 unreserved characters: the only ones left unencoded in query names and values.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Percent-encodes everything but unreserved characters.
    static func encodeQueryPart(_ text: String) -> String {
        // Only fails for strings that are not valid Unicode, which a Swift String cannot be; keep the text then.
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
