import Foundation
import TinyHTTPTransport
import TinyMocks

/// The example mocks: the JSON files in `Examples/Combinations/Mocks` (`mock_<method>_<path>.json`), plus the
/// answers a file cannot give (the 404s of missing records).
public enum ExampleMocks {
    /// The base URL the examples use with mocks; only the path of a request selects its mock file.
    public static let baseURL = URL.jsonPlaceholder

    /// A transport serving the example mocks.
    public static func transport() -> MockTransport {
        let mock = MockTransport(files: .bundle(.module, subdirectory: "Mocks"))
        for path in ["/posts/9999", "/todos/9999", "/users/9999"] {
            mock.register(.get, path, .status(404))
        }
        return mock
    }
}
