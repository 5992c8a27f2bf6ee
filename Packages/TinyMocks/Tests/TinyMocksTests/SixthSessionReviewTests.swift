import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyMocks

/// Mistakes found in the review of the sixth session's fixes.
@Suite(.timeLimit(.minutes(1))) struct SixthSessionReviewTests {
    /// The error-message hunt made a `noMock` message percent-encode control characters and line separators in the
    /// request path (`MockTransport.shown`), but the same message names the file the mock looked for, and
    /// `MockFiles.fileName` encoded only the ASCII control characters: a request for `/a%E2%80%A8b` (U+2028) or
    /// `/a%C2%85b` (U+0085, NEL, a C1 control character the README counts among the "control characters" written
    /// percent-encoded) put a raw line break into "there is no file mock_get_a…b.json", on a mock with files.
    @Test(arguments: [
        ("/a%E2%80%A8b", "mock_get_a%E2%80%A8b.json"), ("/a%E2%80%A9b", "mock_get_a%E2%80%A9b.json"),
        ("/a%C2%85b", "mock_get_a%C2%85b.json"), ("/a%C2%9Fb", "mock_get_a%C2%9Fb.json"),
    ])
    func aLineSeparatorInAPathIsEncodedInTheFileNameAndTheMessage(path: String, file: String) async throws {
        #expect(try MockFiles.fileName(for: .get, path: path) == file)
        let mock = MockTransport(files: fixtures)
        let error = try #require(await mockError(mock, request(.get, "https://api.example.com\(path)")))
        for text in [error.description, error.localizedDescription] {
            let breaks = text.unicodeScalars.filter {
                $0.properties.generalCategory == .control || "\u{2028}\u{2029}".unicodeScalars.contains($0)
            }
            #expect(breaks.isEmpty, "\(text.debugDescription)")
            #expect(text.contains(file))
        }
    }
}
