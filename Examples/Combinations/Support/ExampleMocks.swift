import Foundation
import TinyHTTPTransport
import TinyMocks

/// The example mocks: the JSON files in `Examples/Combinations/Mocks` (`mock_<method>_<path>.json`), plus the
/// answers a file cannot give: the 404s of missing records, and a query (`query_<method>_<path>_<name>_<value>.json`).
public enum ExampleMocks {
    /// The base URL the examples use with mocks; only the path of a request selects its mock file.
    public static let baseURL = URL.jsonPlaceholder

    static let files = MockFiles.bundle(.module, subdirectory: "Mocks")

    /// A transport serving the example mocks.
    ///
    /// - Throws: When a mock file that answers a query cannot be read.
    public static func transport() throws -> MockTransport {
        let mock = MockTransport(files: files)
        for path in ["/posts/9999", "/todos/9999", "/users/9999"] {
            mock.register(.get, path, .status(404, body: Data(#"{"error":"not found"}"#.utf8)))
        }
        let postsOfUser3 = try Data(contentsOf: files.directory.appendingPathComponent("query_get_posts_userId_3.json"))
        mock.register(.get, "/posts", query: ["userId": "3"], .status(200, body: postsOfUser3))
        return mock
    }
}
