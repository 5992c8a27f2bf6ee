import Foundation
import Testing
import TinyKitDemoServer

/// The example mocks hold what the demo server answers, so every example gives the same result with both.
@Suite(.timeLimit(.minutes(1))) struct MockFilesTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Combinations/Mocks")

    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix("mock_") && $0.hasSuffix(".json") }.sorted()
    }()

    func json(_ name: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: Self.directory.appendingPathComponent(name)))
    }

    /// `mock_get_users_1.json` → ("GET", "/users/1").
    func request(for file: String) -> (method: String, path: String) {
        let parts = file.dropFirst("mock_".count).dropLast(".json".count).split(separator: "_")
        return (parts[0].uppercased(), "/" + parts.dropFirst().joined(separator: "/"))
    }

    func withoutID(_ value: JSONValue) throws -> Data {
        guard case .object(var object) = value else { throw MockMismatch(description: "not an object") }
        object["id"] = nil
        return try JSONEncoder().encode(JSONValue.object(object))
    }

    @Test func thereAreMocks() {
        #expect(Self.files.count >= 17)
    }

    @Test(arguments: files)
    func mockMatchesTheDemoServer(file: String) throws {
        let api = DemoAPI()
        let (method, path) = request(for: file)
        let mock = try json(file)
        let response: DemoResponse
        switch method {
        case "GET":
            response = api.handle(DemoRequest(method: method, path: path))
        case "POST", "PUT":
            response = api.handle(DemoRequest(method: method, path: path, body: try withoutID(mock)))
        case "DELETE":
            // Deletes remove what the example created first.
            let resource = "/" + (path.split(separator: "/").first ?? "")
            let created = try json("mock_post_\(resource.dropFirst()).json")
            let creation = api.handle(DemoRequest(method: "POST", path: resource, body: try withoutID(created)))
            #expect(creation.status == 201)
            response = api.handle(DemoRequest(method: method, path: path))
        default:
            throw MockMismatch(description: "unexpected method in \(file)")
        }
        #expect(response.status < 300)
        #expect(response.body == mock, "\(file) differs from \(method) \(path)")
    }

    @Test func queryMockMatchesTheDemoServer() throws {
        let response = DemoAPI().handle(DemoRequest(method: "GET", path: "/posts", query: [("userId", "3")]))
        #expect(response.body == (try json("query_get_posts_userId_3.json")))
    }
}

struct MockMismatch: Error, CustomStringConvertible {
    var description: String
}
