import Foundation
import Testing
import TinyHTTPTransport

@Suite(.timeLimit(.minutes(1))) struct URLBuildingTests {
    private func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test(arguments: [
        ("https://api.example.com/v1/todos", "5", "https://api.example.com/v1/todos/5"),
        ("https://api.example.com/v1/todos/", "5", "https://api.example.com/v1/todos/5"),
        ("https://api.example.com/v1/todos/", "/5", "https://api.example.com/v1/todos/5"),
        ("https://api.example.com/v1/todos//", "//5/", "https://api.example.com/v1/todos/5/"),
        ("https://api.example.com", "todos", "https://api.example.com/todos"),
        ("https://api.example.com/", "a/b", "https://api.example.com/a/b"),
        ("https://api.example.com/v1", "hello world/ü", "https://api.example.com/v1/hello%20world/%C3%BC"),
        ("https://api.example.com/v1", "a?b#c%", "https://api.example.com/v1/a%3Fb%23c%25"),
        ("https://api.example.com/v1?key=1", "users", "https://api.example.com/v1/users?key=1"),
    ])
    func appendingRelativeKeepsTheBasePath(base: String, relative: String, expected: String) throws {
        #expect(try url(base).appendingRelative(relative).absoluteString == expected)
    }

    @Test func queryItemsAreAppendedInOrderAfterExistingOnes() throws {
        let result = try url("https://example.com/search?page=2").appendingQueryItems([
            URLQueryItem(name: "z", value: "1"), URLQueryItem(name: "a", value: "2"),
            URLQueryItem(name: "flag", value: nil),
        ])
        #expect(result.absoluteString == "https://example.com/search?page=2&z=1&a=2&flag")
    }

    @Test func anEmptyQueryGetsTheItemsWithoutALeadingSeparator() throws {
        let result = try url("https://example.com/search?").appendingQueryItems([URLQueryItem(name: "a", value: "1")])
        #expect(result.absoluteString == "https://example.com/search?a=1")
    }

    @Test func queryEscapingIsStrict() throws {
        let result = try url("https://example.com/s").appendingQueryItems([
            URLQueryItem(name: "q", value: "a+b & c=d/e?"), URLQueryItem(name: "naïve name", value: "😀"),
        ])
        #expect(
            result.absoluteString
                == "https://example.com/s?q=a%2Bb%20%26%20c%3Dd%2Fe%3F&na%C3%AFve%20name=%F0%9F%98%80")
        let items = try #require(URLComponents(url: result, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(items.map(\.value) == ["a+b & c=d/e?", "😀"])
    }

    @Test func queryParametersAreSortedByName() throws {
        let result = try url("https://example.com/s?x=0").appendingQueryParameters(["b": "2", "a": "1", "c": "3"])
        #expect(result.query == "x=0&a=1&b=2&c=3")
    }

    @Test func appendingNoItemsChangesNothing() throws {
        let original = try url("https://example.com/s?x=%2B")
        #expect(original.appendingQueryItems([]) == original)
    }

    /// A `.` or `..` segment is sent escaped: URLSession removes dot segments before sending (RFC 3986 §5.2.4; on
    /// Linux libcurl sent `/v1/users/..` as `/v1/`), so `baseURL.appendingRelative("users/\(id)")` with an id of
    /// `..` requested the base's parent. `URL.standardized` removes dot segments as URLSession does.
    @Test(arguments: ["..", "../admin", "5/../..", "./../x", "a/./b"])
    func aDotSegmentDoesNotLeaveTheBasePath(relative: String) throws {
        let sent = try url("https://api.example.com/v1/users").appendingRelative(relative).standardized
        #expect(sent.path.hasPrefix("/v1/users/"), "sent as \(sent.absoluteString)")
        let climbing = try url("https://h/v1").appendingRelative("../admin")
        #expect(climbing.absoluteString == "https://h/v1/%252E%252E/admin")
        let kept = try url("https://h/v1").appendingRelative("a.json/..x/.../.")  // only whole dot segments
        #expect(kept.absoluteString == "https://h/v1/a.json/..x/.../%252E")
    }

    /// Escaping the dots as `%2E` did not keep a `..` segment from leaving the base path. `%2E` and `.` are
    /// the same URI character (RFC 3986 §2.3: percent-encoded unreserved characters are equivalent to them, and
    /// normalized by decoding, §6.2.2.2), so `%2E%2E` is still a dot segment to a server or proxy that normalizes
    /// before routing: nginx 1.22 answers `GET /v1/users/%2E%2E/%2E%2E/admin` with the file of `/admin` (checked on
    /// loopback). They are sent as the text `%2E` (`%252E`), which no normalization turns into a dot.
    @Test func aDotSegmentDoesNotLeaveTheBasePathOnceNormalized() throws {
        let sent = try url("https://api.example.com/v1/users").appendingRelative("../../admin")
        // RFC 3986 §6.2.2.2, then §6.2.2.3: decode the percent-encoded unreserved characters, remove dot segments.
        let normalized = try url(sent.absoluteString.replacingOccurrences(of: "%2E", with: ".")).standardized
        #expect(normalized.path.hasPrefix("/v1/users/"), "sent as \(sent.absoluteString), read as \(normalized)")
    }
}
