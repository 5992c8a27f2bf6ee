import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyMocks

@Suite(.timeLimit(.minutes(1))) struct FileMockTests {
    @Test(arguments: [
        (HTTPMethod.get, "/users", "mock_get_users.json"),
        (.post, "/users", "mock_post_users.json"),
        (.GET, "/users/1", "mock_get_users_1.json"),
        (.get, "", "mock_get_root.json"),
        (.get, "/", "mock_get_root.json"),
        (.delete, "/users/1/", "mock_delete_users_1.json"),
        (.get, "//users//1", "mock_get_users_1.json"),
        (.get, "/users?page=2#top", "mock_get_users.json"),
        (.get, "/users#top", "mock_get_users.json"),
        (.get, "/projects/a%2Fb", "mock_get_projects_a%2Fb.json"),
        (.get, "/a%5Cb/c%00d/100%25", "mock_get_a%5Cb_c%00d_100%25.json"),
        (.get, "/a%1Fb/c%7Fd/e%20f", "mock_get_a%1Fb_c%7Fd_e f.json"),  // the last control characters; a space is kept
        (HTTPMethod(rawValue: "Propfind"), "/x", "mock_propfind_x.json"),
        (HTTPMethod(rawValue: "X-Ping2"), "/x", "mock_x-ping2_x.json"),  // digits are token characters
    ])
    func namesFilesAfterMethodAndPath(method: HTTPMethod, path: String, expected: String) throws {
        #expect(try MockFiles.fileName(for: method, path: path) == expected)
    }

    @Test func answersFromTheTestBundle() async throws {
        let mock = MockTransport(files: fixtures)
        let (body, response) = try await mock.send(request(.get, "https://api.example.com/users"))
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let users = try JSONDecoder().decode([User].self, from: body)
        #expect(users.map(\.name) == ["John Doe", "Jane Smith"])
        #expect(response.url?.absoluteString == "https://api.example.com/users")
    }

    @Test(arguments: [
        (HTTPMethod.post, "https://api.example.com/users", "New User"),
        (.get, "https://api.example.com/users/1", "John Doe"),
        (.get, "https://api.example.com/users/1?expand=true", "John Doe"),
        (.get, "https://api.example.com/users/jos%C3%A9", "José"),
        (.get, "https://api.example.com/users/jose%CC%81", "José"),  // decomposed é: same file
    ])
    func answersEachRequestWithItsFile(method: HTTPMethod, url: String, name: String) async throws {
        let (body, _) = try await MockTransport(files: fixtures).send(request(method, url))
        #expect(try JSONDecoder().decode(User.self, from: body).name == name)
    }

    @Test func answersTheRootAndEncodedSlashes() async throws {
        let mock = MockTransport(files: fixtures)
        let (root, _) = try await mock.send(request(.get, "https://api.example.com"))
        #expect(String(decoding: root, as: UTF8.self).contains("root"))
        let (project, _) = try await mock.send(request(.get, "https://gitlab.example.com/projects/diaspora%2Fdiaspora"))
        #expect(String(decoding: project, as: UTF8.self).contains("diaspora/diaspora"))
    }

    @Test func stripsABasePathOnlyWhenAsked() async throws {
        let url = "https://gitlab.example.com/api/v4/users/1"
        let plain = MockTransport(files: fixtures)
        let error = await mockError(plain, try request(.get, url))
        guard case .noMock(_, let path, let file, _, _) = error else {
            Issue.record("expected noMock, got \(String(describing: error))")
            return
        }
        #expect(path == "/api/v4/users/1")
        #expect(file == "mock_get_api_v4_users_1.json")

        let stripped = MockTransport(files: fixtures, basePath: "/api/v4")
        let (body, _) = try await stripped.send(request(.get, url))
        #expect(try JSONDecoder().decode(User.self, from: body).id == 1)
        // A view shares routes and recording.
        let view = plain.stripping(basePath: "api/v4/")
        _ = try await view.send(request(.get, url))
        #expect(plain.requests.count == 2)
    }

    @Test func aMissingFileNamesTheFileTheDirectoryAndTheRoutes() async throws {
        let mock = MockTransport(files: fixtures)
        mock.register(.post, "/sessions", .status(201))
        mock.register(.get, "/search", query: ["q": "swift"], .status(200))
        let error = try #require(await mockError(mock, request(.get, "https://api.example.com/users/42")))
        #expect(
            error
                == .noMock(
                    method: .get, path: "/users/42", lookedFor: "mock_get_users_42.json", in: fixtures.directory.path,
                    routes: ["POST /sessions", "GET /search?q=swift"]))
        #expect(error.description.contains("mock_get_users_42.json"))
        #expect(error.description.contains(fixtures.directory.path))
        #expect(error.description.contains("POST /sessions, GET /search?q=swift"))
        #expect(error.localizedDescription == error.description)
    }

    @Test func missingMocksSurfaceAsTransportErrorsWithTheExplanation() async throws {
        let mock = MockTransport()
        let error = try #require(await transportError(mock, request(.get, "https://api.example.com/nothing")))
        #expect(error.code == .other)
        #expect(error.request?.url?.path == "/nothing")
        #expect(error.description.contains("No mock for GET /nothing"))
        #expect(error.description.contains("no directory of mock files"))
        #expect(error.description.contains("no routes are registered"))
    }

    @Test func readsFromAnyDirectory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tinymocks-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("[]".utf8).write(to: directory.appendingPathComponent("mock_get_items.json"))
        let mock = MockTransport(files: MockFiles(directory: directory))
        let (body, _) = try await mock.send(request(.get, "http://localhost:8080/items"))
        #expect(body == Data("[]".utf8))
    }

    @Test func theDirectoryIsStandardized() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tinymocks-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("[]".utf8).write(to: directory.appendingPathComponent("mock_get_items.json"))
        let files = MockFiles(directory: directory.appendingPathComponent("other/../."))
        #expect(files.directory.path == directory.standardizedFileURL.path)
        let (body, _) = try await MockTransport(files: files).send(request(.get, "http://localhost:8080/items"))
        #expect(body == Data("[]".utf8))
    }

    @Test func anUnreadableFileIsAClearError() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tinymocks-\(UUID())")
        // A directory where the file should be: it exists, but cannot be read as a file.
        let file = directory.appendingPathComponent("mock_get_items.json")
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = await mockError(
            MockTransport(files: MockFiles(directory: directory)), try request(.get, "http://h/items"))
        guard case .unreadableFile(let path, _) = error else {
            Issue.record("expected unreadableFile, got \(String(describing: error))")
            return
        }
        #expect(path.hasSuffix("mock_get_items.json"))
    }

    @Test func theMainBundleIsTheAppDefault() {
        #expect(MockTinyAPIClient().transport.files?.directory == MockFiles.bundle(.main).directory)
        #expect(fixtures.directory.lastPathComponent == "Fixtures")
    }
}
