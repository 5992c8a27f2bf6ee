import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyMocks

/// Route matching of queries and written paths, routes named in `noMock`, the timeout boundary and the link check:
/// behaviour that broke what the documentation promises, found by the mocks hunt (each comment says what was wrong).
@Suite(.timeLimit(.minutes(1))) struct QueryTimeoutAndLinkEdgeTests {
    /// The text of the body `mock` answers `url` with, or `nil` when it fails.
    func answer(_ mock: MockTransport, _ url: String) async throws -> String? {
        let request = try request(.get, url)
        guard let (body, _) = try? await mock.send(request) else { return nil }
        return String(decoding: body, as: UTF8.self)
    }

    /// MockTransport.swift `send(_:)` (`components?.queryItems`) and `nextRouteAnswer` (`$0.value ?? ""`): a query
    /// value that is not UTF-8 once decoded (`q=%E9`, Latin-1 `é`) has the value `nil` in `queryItems`, read as the
    /// empty value: the request is answered by the route for the bare flag `?q` (`q=""`), not by the route without a
    /// query that matches it. Paths keep such a segment as written; queries do not.
    @Test func aQueryValueThatIsNotUTF8IsNotTheEmptyValue() async throws {
        let mock = MockTransport()
        mock.register(.get, "/search", .text("any"))
        mock.register(.get, "/search", query: ["q": ""], .text("flag"))
        #expect(try await answer(mock, "https://h/search?q") == "flag")

        let latin1 = try await answer(mock, "https://h/search?q=%E9")
        #expect(latin1 == "any")
    }

    /// MockTransport.swift `register` (`($0.name, $0.value ?? "")`): the same for a query written in the route's
    /// path: `"/search?q=%E9"` is kept as `q = ""`, so it answers `?q=` and `?q` (and is listed as `GET /search?q=`).
    @Test func aRouteQueryThatIsNotUTF8IsNotTheEmptyValue() async throws {
        let mock = MockTransport()
        mock.register(.get, "/search?q=%E9", .text("latin1"))
        #expect(try await answer(mock, "https://h/search?q=%E9") == "latin1")

        let empty = try await answer(mock, "https://h/search?q=")
        #expect(empty == nil)
        #expect(mock.routes == ["GET /search?q=%E9"])
    }

    /// MockTransport.swift `register` (`query.merging(items) { given, _ in given }`): a query written in the path
    /// "is matched as `query` is", but a name written twice (`tag=a&tag=b`, as `URLQueryItem`s and servers allow)
    /// keeps only its first value: the route answers a request with `tag=a` alone, and is listed as
    /// `GET /tags?tag=a`. The second condition is dropped without a word.
    @Test func aQueryNameWrittenTwiceInTheRoutePathRequiresBothValues() async throws {
        let mock = MockTransport()
        mock.register(.get, "/tags?tag=a&tag=b", .text("both"))
        #expect(try await answer(mock, "https://h/tags?tag=a&tag=b") == "both")

        let onlyA = try await answer(mock, "https://h/tags?tag=a")
        #expect(onlyA == nil)
    }

    /// MockTransport.swift `register` (`path.prefix { $0 != "?" }`): the path is "written as in a URL", and a
    /// fragment is no part of a URL's path (`MockFiles.fileName(for:path:)` drops it), but a route keeps `#top` in its
    /// last segment (`users#top`): it can never match a request, and no error says so.
    @Test func aFragmentWrittenInTheRoutePathIsNotPartOfIt() async throws {
        #expect(try MockFiles.fileName(for: .get, path: "/users#top") == "mock_get_users.json")
        let mock = MockTransport()
        mock.register(.get, "/users#top", .text("users"))

        let users = try await answer(mock, "https://h/users")
        #expect(users == "users")
    }

    /// MockTransport.swift `path(of:)`: only `/` is escaped in a decoded segment, so a segment holding `?` reads as a
    /// query. A route registered as `/search?q=swift` is listed as `GET /search?q=swift` in the `noMock` of the
    /// request `GET /search%3Fq=swift` (the segment `search?q=swift`), which is shown as `/search?q=swift` too: the
    /// message names the request itself as a registered route (the `%2F` case was fixed already).
    @Test func theNoMockMessageTellsAnEncodedQuestionMarkFromAQuery() async throws {
        let mock = MockTransport()
        mock.register(.get, "/search?q=swift", .text("swift"))
        let error = await mockError(mock, try request(.get, "https://h/search%3Fq=swift"))
        guard case .noMock(_, let path, _, _, let routes) = error else {
            Issue.record("expected noMock, got \(String(describing: error))")
            return
        }
        #expect(routes != ["GET \(path)"])
    }

    /// MockTransport.swift `wait(_:for:)` (`Duration.seconds(seconds)` and `delay > timeout`): "a delay longer than
    /// the request's `timeoutInterval` fails as `timedOut`", and one of exactly the timeout answers
    /// (`DelayTests.aDelayLongerThanTheTimeoutTimesOut`). But the `Double` `2.3` is 2.29999999999999982… s, so a delay
    /// of 2300 ms, exactly the timeout, times out; `0.3` (also just under) is rounded up by `Duration` and answers.
    @Test(arguments: [(2.3, 2300), (4.35, 4350), (0.3, 300)] as [(Double, Int64)])
    func aDelayOfExactlyADecimalTimeoutAnswers(timeout: Double, milliseconds: Int64) async throws {
        let clock = RecordingClock()
        let mock = MockTransport(delay: .milliseconds(milliseconds), clock: clock)
        mock.register(.get, "/slow", .status(200))
        var slow = try request(.get, "https://h/slow")
        slow.timeoutInterval = timeout

        let status = try? await mock.send(slow).1.statusCode
        #expect(status == 200)
    }

    /// MockFiles.swift `url(ofFileNamed:path:)` (`realFile.hasPrefix(…)`): the link check compares paths as Swift
    /// strings, which are equal under Unicode canonical equivalence, while Linux file names are bytes. A mock
    /// directory `cafe\u{301}` (decomposed) and its sibling `caf\u{E9}` (composed) are two directories, yet a link
    /// into the sibling passes as "inside": the mock serves a file outside its directory, which the documentation
    /// says is refused.
    @Test func aLinkIntoACanonicallyEquivalentSiblingIsRefused() async throws {
        let files = FileManager.default
        let root = files.temporaryDirectory.appendingPathComponent("tinymocks-nfc-\(UUID())")
        defer { try? files.removeItem(at: root) }
        let mocks = URL(fileURLWithPath: root.path + "/cafe\u{301}", isDirectory: true)
        let sibling = URL(fileURLWithPath: root.path + "/caf\u{E9}", isDirectory: true)
        try files.createDirectory(at: mocks, withIntermediateDirectories: true)
        try files.createDirectory(at: sibling, withIntermediateDirectories: true)
        // Two directories on this file system: names are bytes.
        try #require(try files.contentsOfDirectory(atPath: root.path).count == 2)
        try Data(#""SECRET""#.utf8).write(to: URL(fileURLWithPath: sibling.path + "/secret.json"))
        try files.createSymbolicLink(
            atPath: mocks.path + "/mock_get_users.json", withDestinationPath: "../caf\u{E9}/secret.json")
        let mock = MockTransport(files: MockFiles(directory: mocks))

        let served = try await answer(mock, "https://h/users")
        #expect(served == nil)
    }
}
