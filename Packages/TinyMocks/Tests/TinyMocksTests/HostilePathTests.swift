import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport

@testable import TinyMocks

/// Request paths that try to make the mock read outside its directory, or to name impossible files.
@Suite(.timeLimit(.minutes(1))) struct HostilePathTests {
    /// A temporary folder holding secrets, with the mock directory `mocks` inside it.
    final class Sandbox {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tinymocks-\(UUID())")
        var mocks: URL { root.appendingPathComponent("mocks") }

        init() throws {
            try FileManager.default.createDirectory(at: mocks, withIntermediateDirectories: true)
            for name in ["secret.json", "mock_get_secret.json", "passwd"] {
                try Data("SECRET".utf8).write(to: root.appendingPathComponent(name))
            }
            try Data("{}".utf8).write(to: mocks.appendingPathComponent("mock_get_ok.json"))
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    @Test(arguments: [
        "http://h/../mock_get_secret", "http://h/%2E%2E/secret", "http://h/ok/%2e%2e/%2e%2e/secret",
        "http://h/./ok",
    ])
    func dotSegmentsAreRefused(url: String) async throws {
        let sandbox = try Sandbox()
        let mock = MockTransport(files: MockFiles(directory: sandbox.mocks))
        let error = try #require(await transportError(mock, request(.get, url)))
        #expect(error.code == .invalidRequest)
        guard case .unsafePath(_, let reason) = error.underlyingError as? MockError else {
            Issue.record("expected unsafePath, got \(error)")
            return
        }
        #expect(reason.contains("segment"))
    }

    @Test(arguments: [
        ("http://h/..%2Fsecret", "mock_get_..%2Fsecret.json"),
        ("http://h/%2F..%2F..%2Fpasswd", "mock_get_%2F..%2F..%2Fpasswd.json"),
        ("http://h/..%5C..%5Csecret", "mock_get_..%5C..%5Csecret.json"),
        ("http://h/ok%00.json", "mock_get_ok%00.json.json"),
        ("http://h//etc/passwd", "mock_get_etc_passwd.json"),
        ("http://h/%25%32%46", "mock_get_%252F.json"),
    ])
    func separatorsAndNULsStayInsideTheFileName(url: String, file: String) async throws {
        let sandbox = try Sandbox()
        let mock = MockTransport(files: MockFiles(directory: sandbox.mocks))
        let error = await mockError(mock, try request(.get, url))
        guard case .noMock(_, _, let lookedFor, let directory, _) = error else {
            Issue.record("expected noMock, got \(String(describing: error))")
            return
        }
        #expect(lookedFor == file)
        #expect(directory == sandbox.mocks.standardizedFileURL.path)
    }

    @Test(arguments: ["http://h/ok?file=../../secret.json", "http://h/ok?%2F..%2Fsecret#../../passwd"])
    func queriesAndFragmentsNeverNameTheFile(url: String) async throws {
        let sandbox = try Sandbox()
        let (body, _) = try await MockTransport(files: MockFiles(directory: sandbox.mocks)).send(request(.get, url))
        #expect(body == Data("{}".utf8))
    }

    @Test func invalidPercentEncodingIsRefused() throws {
        #expect(throws: MockError.unsafePath(path: "/a/%ZZ", reason: "\"%ZZ\" is not valid percent-encoding")) {
            try MockFiles.fileName(for: .get, path: "/a/%ZZ")
        }
    }

    /// Every refusal names the path without its query, as the percent-encoding one did: a dot segment, a method that
    /// is not a token and a too-long name put the query (and a token in it) into the message.
    @Test(arguments: [
        ("/a/../b", HTTPMethod.get), ("/b", HTTPMethod(rawValue: "BAD METHOD")),
        ("/" + String(repeating: "x", count: 300), .get),
    ])
    func aRefusalNamesThePathWithoutItsQuery(path: String, method: HTTPMethod) throws {
        let error = try #require(throws: MockError.self) {
            try MockFiles.fileName(for: method, path: path + "?token=s3cret#top")
        }
        #expect(!"\(error)".contains("s3cret"), "\(error)")
        guard case .unsafePath(let named, _) = error else { return }
        #expect(path.hasPrefix(named.prefix { $0 != "…" }))
    }

    /// README ("File names") and `MockFiles`: invalid percent-encoding is refused with `MockError.unsafePath`
    /// (`invalidRequest`), and `MockFiles.fileName(for:path:)` names the file that answers. `send(_:)` keeps a
    /// segment that is not UTF-8 (`jos%E9`) as written, for routes, and then looks for a file under that text with its
    /// `%` escaped, `mock_get_legacy_jos%25E9.json`: the file of the path `/legacy/jos%25E9`, read for another path.
    /// Refused now, as the README says.
    @Test func aPathThatIsNotUTF8NamesNoFile() async throws {
        let sandbox = try Sandbox()
        try Data("{}".utf8).write(to: sandbox.mocks.appendingPathComponent("mock_get_legacy_jos%25E9.json"))
        let mock = MockTransport(files: MockFiles(directory: sandbox.mocks))
        #expect(throws: MockError.self) { try MockFiles.fileName(for: .get, path: "/legacy/jos%E9") }
        let error = try #require(await transportError(mock, try request(.get, "http://h/legacy/jos%E9")))
        #expect(error.code == .invalidRequest)
        guard case .unsafePath(_, let reason) = error.underlyingError as? MockError else {
            Issue.record("expected unsafePath, got \(error)")
            return
        }
        #expect(reason == "\"jos%E9\" is not valid percent-encoding")
        // The file of the path whose segment is the text `jos%E9` still answers it.
        let (body, _) = try await mock.send(try request(.get, "http://h/legacy/jos%25E9"))
        #expect(body == Data("{}".utf8))
    }

    /// Review (bae3409): the refusal of a segment that is not UTF-8 looks at the whole path as written, base path
    /// included, though the base path's segments are taken off before the file is named (`basePath:` and
    /// `MockTinyAPIClient`, which takes the endpoint's base URL path off: the type's docs). A request under a base path
    /// written in Latin-1 (`/caf%E9`) to `/users` names `mock_get_users.json`, no other path's file: it is served
    /// (that fix refused it as `unsafePath` at first).
    @Test func aBasePathThatIsNotUTF8DoesNotRefuseTheRequestsUnderIt() async throws {
        let sandbox = try Sandbox()
        try Data("[]".utf8).write(to: sandbox.mocks.appendingPathComponent("mock_get_users.json"))
        let mock = MockTransport(files: MockFiles(directory: sandbox.mocks), basePath: "/caf%E9")
        let (body, _) = try await mock.send(try request(.get, "http://h/caf%E9/users"))
        #expect(body == Data("[]".utf8))
        let client = MockTinyAPIClient(transport: MockTransport(files: MockFiles(directory: sandbox.mocks)))
        let users = try await client.get(from: "https://legacy.example.com/caf%E9", path: "/users", as: [Int].self)
        #expect(users == [])
    }

    @Test func aMethodThatIsNotATokenIsRefused() async throws {
        let sandbox = try Sandbox()
        let mock = MockTransport(files: MockFiles(directory: sandbox.mocks))
        mock.register(HTTPMethod(rawValue: "GET/../SECRET"), "/ok", .status(200))
        // Refused before any route or file is looked at, as a live transport refuses it.
        let error = try #require(
            await transportError(mock, try request(HTTPMethod(rawValue: "GET/../SECRET"), "http://h/ok")))
        #expect(error.code == .invalidRequest)
        #expect(error.message?.contains("not an HTTP token") == true)
        // Naming a file for it directly is refused too.
        #expect(throws: MockError.self) {
            try MockFiles.fileName(for: HTTPMethod(rawValue: "GET/../SECRET"), path: "/ok")
        }
        // An empty method is no token either: it would name `mock__ok.json`.
        #expect(throws: MockError.self) { try MockFiles.fileName(for: HTTPMethod(rawValue: ""), path: "/ok") }
    }

    @Test func aDotSegmentIsNamedInTheRefusal() {
        #expect(throws: MockError.unsafePath(path: "/a/../b", reason: #"it has a ".." segment"#)) {
            try MockFiles.fileName(for: .get, path: "/a/../b")
        }
    }

    @Test(arguments: [241, 242, 1000])
    func namesLongerThan255BytesAreRefused(length: Int) async throws {
        let sandbox = try Sandbox()
        let mock = MockTransport(files: MockFiles(directory: sandbox.mocks))
        let error = await mockError(mock, try request(.get, "http://h/" + String(repeating: "a", count: length)))
        switch error {
        case .noMock(_, _, let file?, _, _):
            #expect(length == 241)
            #expect(file.utf8.count == 255)
        case .unsafePath(let path, let reason):
            #expect(length > 241)
            #expect(reason.contains("\(length + 14) bytes"))
            #expect(path.count <= 82)
        default:
            Issue.record("unexpected \(String(describing: error))")
        }
    }

    /// A refused path longer than 80 characters is shortened in the error to its first 80 and "…".
    @Test(arguments: [80, 81])
    func aLongRefusedPathIsShortenedAfter80Characters(length: Int) {
        let path = "/" + String(repeating: "😀", count: length - 1)  // 4 bytes each: far over 255 bytes
        let error = #expect(throws: MockError.self) { try MockFiles.fileName(for: .get, path: path) }
        guard case .unsafePath(let shown, _) = error else {
            Issue.record("expected unsafePath, got \(String(describing: error))")
            return
        }
        #expect(shown == (length > 80 ? String(path.prefix(80)) + "…" : path))
    }

    @Test func unicodeCountsInBytes() throws {
        let tooLong = "/" + String(repeating: "%C3%A9", count: 121)  // 121 × "é", 242 bytes
        #expect(throws: MockError.self) { try MockFiles.fileName(for: .get, path: tooLong) }
        let fits = "/" + String(repeating: "%C3%A9", count: 120)
        #expect(try MockFiles.fileName(for: .get, path: fits).utf8.count == 254)
    }

    @Test func noHostileRequestEverReadsASecret() async throws {
        let sandbox = try Sandbox()
        let mock = MockTransport(files: MockFiles(directory: sandbox.mocks))
        let paths = [
            "/../secret.json", "/..%2Fsecret.json", "/%2E%2E%2Fsecret", "/../../../../etc/passwd", "/ok/../../secret",
            "/%2e%2e%2f%2e%2e%2fpasswd", "/..\\secret", "/%00/../secret", "/" + String(repeating: "../", count: 100),
        ]
        for path in paths {
            let url = try #require(URL(string: "http://h" + path), "\(path) is not a URL: the test would not try it")
            let refusal = await #expect(throws: HTTPTransportError.self, "\(path) answered") {
                try await mock.send(URLRequest(url: url))
            }
            if let error = refusal { #expect(error.underlyingError is MockError, "\(path): \(error)") }
        }
        #expect(mock.requests.count == paths.count)
    }
}
