import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport

@testable import TinyMocks

/// Symbolic links in and to the mock directory: one that leads outside it is refused, as the README promises; one
/// that stays inside, or a directory reached through a link, works.
@Suite(.timeLimit(.minutes(1))) struct SymlinkTests {
    /// A temporary folder with a secret, the mock directory `mocks` inside it and a link `linked` to `mocks`.
    final class Sandbox {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tinymocks-links-\(UUID())")
        var mocks: URL { root.appendingPathComponent("mocks") }

        init() throws {
            let files = FileManager.default
            try files.createDirectory(at: mocks, withIntermediateDirectories: true)
            try Data("SECRET".utf8).write(to: root.appendingPathComponent("secret.json"))
            try Data(#"{"ok":true}"#.utf8).write(to: mocks.appendingPathComponent("mock_get_ok.json"))
            try link("mocks/mock_get_relative.json", to: "../secret.json")
            try link("mocks/mock_get_absolute.json", to: root.appendingPathComponent("secret.json").path)
            try link("mocks/mock_get_alias.json", to: "mock_get_ok.json")
            try link("mocks/mock_get_dangling.json", to: "../nothing.json")
            try link("linked", to: "mocks")
        }

        /// Creates the link `name` (relative to the root) pointing to `target`, as written.
        func link(_ name: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(
                atPath: root.appendingPathComponent(name).path, withDestinationPath: target)
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    @Test(arguments: ["relative", "absolute"])
    func aLinkLeadingOutsideTheDirectoryIsRefused(name: String) async throws {
        let sandbox = try Sandbox()
        let mock = MockTransport(files: MockFiles(directory: sandbox.mocks))

        let error = try #require(await transportError(mock, try request(.get, "http://h/\(name)")))

        #expect(error.code == .invalidRequest)
        guard case .unsafePath(let path, let reason) = error.underlyingError as? MockError else {
            Issue.record("expected unsafePath, got \(error)")
            return
        }
        #expect(path == "/\(name)")
        #expect(reason.contains("mock_get_\(name).json is a link to"))
        #expect(reason.contains("outside the mock directory"))
        #expect(!error.description.contains("SECRET"))
    }

    /// A sibling directory whose name starts with the mock directory's (`mocks-old` beside `mocks`) is outside it.
    @Test func aLinkIntoASiblingWithTheSamePrefixIsRefused() async throws {
        let sandbox = try Sandbox()
        let sibling = sandbox.root.appendingPathComponent("mocks-old")
        try FileManager.default.createDirectory(at: sibling, withIntermediateDirectories: true)
        try Data("SECRET".utf8).write(to: sibling.appendingPathComponent("secret.json"))
        try sandbox.link("mocks/mock_get_sibling.json", to: "../mocks-old/secret.json")
        let mock = MockTransport(files: MockFiles(directory: sandbox.mocks))

        let error = await mockError(mock, try request(.get, "http://h/sibling"))

        guard case .unsafePath(_, let reason) = error else {
            Issue.record("expected unsafePath, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("outside the mock directory"))
    }

    @Test func aLinkInsideTheDirectoryIsAnswered() async throws {
        let sandbox = try Sandbox()
        let (body, _) = try await MockTransport(files: MockFiles(directory: sandbox.mocks))
            .send(request(.get, "http://h/alias"))
        #expect(body == Data(#"{"ok":true}"#.utf8))
    }

    @Test func aDirectoryReachedThroughALinkWorksAndStillRefusesEscapes() async throws {
        let sandbox = try Sandbox()
        let mock = MockTransport(files: MockFiles(directory: sandbox.root.appendingPathComponent("linked")))

        let (body, _) = try await mock.send(request(.get, "http://h/ok"))
        #expect(body == Data(#"{"ok":true}"#.utf8))
        let (alias, _) = try await mock.send(request(.get, "http://h/alias"))
        #expect(alias == body)
        let error = await mockError(mock, try request(.get, "http://h/relative"))
        guard case .unsafePath = error else {
            Issue.record("expected unsafePath, got \(String(describing: error))")
            return
        }
    }

    @Test func aDanglingLinkIsNoMock() async throws {
        let sandbox = try Sandbox()
        let error = await mockError(
            MockTransport(files: MockFiles(directory: sandbox.mocks)), try request(.get, "http://h/dangling"))
        guard case .noMock(_, _, let file, _, _) = error else {
            Issue.record("expected noMock, got \(String(describing: error))")
            return
        }
        #expect(file == "mock_get_dangling.json")
    }

    @Test func theTinyAPIMockClientRefusesItToo() async throws {
        let sandbox = try Sandbox()
        let client = MockTinyAPIClient(files: MockFiles(directory: sandbox.mocks))
        let error = try await #require(throws: TinyAPIError.self) {
            try await client.get(from: "https://api.example.com", path: "/absolute", as: [String: String].self)
        }
        guard case .unsafePath = MockError(error) else {
            Issue.record("expected unsafePath, got \(error)")
            return
        }
    }
}
