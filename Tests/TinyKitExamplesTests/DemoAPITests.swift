import Foundation
import Testing
import TinyKitDemoServer

@Suite(.timeLimit(.minutes(1))) struct DemoAPITests {
    let api = DemoAPI()

    func send(_ method: String, _ path: String, _ body: String = "", query: [(String, String)] = []) -> DemoResponse {
        api.handle(
            DemoRequest(
                method: method, path: path, query: query.map { (name: $0.0, value: $0.1) }, body: Data(body.utf8)))
    }

    func objects(_ response: DemoResponse) throws -> [[String: JSONValue]] {
        guard case .array(let items) = response.body else { throw Unexpected(response) }
        return try items.map { item in
            guard case .object(let object) = item else { throw Unexpected(response) }
            return object
        }
    }

    func object(_ response: DemoResponse) throws -> [String: JSONValue] {
        guard case .object(let object) = response.body else { throw Unexpected(response) }
        return object
    }

    @Test func listsEveryResourceSortedByID() throws {
        for (path, count) in [("/users", 3), ("/todos", 6), ("/posts", 4)] {
            let response = send("GET", path)
            #expect(response.status == 200)
            let ids = try objects(response).map { $0["id"] }
            #expect(ids == (1...count).map { JSONValue.int($0) })
        }
    }

    @Test func readsOneRecord() throws {
        let response = send("GET", "/todos/3")
        #expect(response.status == 200)
        #expect(try object(response)["title"] == .string("Find the moth"))
    }

    @Test func filtersByQueryAndNestedPath() throws {
        let byQuery = try objects(send("GET", "/posts", query: [("userId", "3")]))
        #expect(byQuery.map { $0["id"] } == [.int(3), .int(4)])
        let nested = try objects(send("GET", "/users/2/todos"))
        #expect(nested.map { $0["id"] } == [.int(3), .int(4)])
        let done = try objects(send("GET", "/todos", query: [("completed", "true")]))
        #expect(done.count == 3)
        // A resource nested in itself listed every record.
        #expect(send("GET", "/users/1/users").status == 404)
    }

    @Test func createsWithTheNextIDAndStatus201() throws {
        let response = send("POST", "/todos", #"{"userId": 2, "title": "Ship it", "completed": false}"#)
        #expect(response.status == 201)
        let created = try object(response)
        #expect(created["id"] == .int(7))
        #expect(created["title"] == .string("Ship it"))
        #expect(try object(send("GET", "/todos/7"))["title"] == .string("Ship it"))
    }

    @Test func replacesAndPatches() throws {
        let put = send("PUT", "/users/1", #"{"name": "Ada", "username": "ada", "email": "a@example.com", "id": 42}"#)
        #expect(put.status == 200)
        #expect(try object(put) == ["id": .int(1), "name": "Ada", "username": "ada", "email": "a@example.com"])
        let patch = send("PATCH", "/users/1", #"{"email": "b@example.com"}"#)
        #expect(patch.status == 200)
        #expect(try object(patch)["email"] == .string("b@example.com"))
        #expect(try object(patch)["name"] == .string("Ada"))
    }

    @Test func deletesWith200AndAnEmptyObject() throws {
        let response = send("DELETE", "/posts/2")
        #expect(response.status == 200)
        #expect(response.body == .object([:]))
        #expect(send("GET", "/posts/2").status == 404)
        #expect(send("DELETE", "/posts/2").status == 404)
    }

    @Test(arguments: [
        ("GET", "/todos/999"), ("PUT", "/todos/999"), ("DELETE", "/users/999"), ("GET", "/todos/abc"),
        ("GET", "/comments"), ("GET", "/users/999/todos"), ("GET", "/users/1/todos/extra"),
    ])
    func answers404ForWhatDoesNotExist(method: String, path: String) throws {
        let response = send(method, path, #"{"userId": 1, "title": "x", "completed": true}"#)
        #expect(response.status == 404)
        guard case .string(let message)? = try object(response)["error"] else { throw Unexpected(response) }
        #expect(!message.isEmpty)
    }

    @Test(arguments: [
        "", "not json", "[1, 2]", #"{"title": "no user"}"#, #"{"userId": "1", "title": "x", "completed": false}"#,
        #"{"userId": 1, "title": "x", "completed": "yes"}"#,
    ])
    func answers400ForMalformedBodies(body: String) throws {
        let response = send("POST", "/todos", body)
        #expect(response.status == 400)
        #expect(try object(response)["error"] != nil)
        #expect(try objects(send("GET", "/todos")).count == 6)
    }

    @Test func answers405ForMethodsACollectionDoesNotHave() {
        #expect(send("DELETE", "/todos").status == 405)
        #expect(send("POST", "/todos/1", "{}").status == 405)
    }

    @Test func concurrentCreatesGetDistinctIDs() async throws {
        let api = self.api
        let ids = await withTaskGroup(of: JSONValue?.self) { group in
            for index in 0..<50 {
                group.addTask {
                    let body = Data(#"{"userId": 1, "title": "t\#(index)", "body": "b"}"#.utf8)
                    let response = api.handle(DemoRequest(method: "POST", path: "/posts", body: body))
                    guard case .object(let object) = response.body else { return nil }
                    return object["id"]
                }
            }
            return await group.reduce(into: [JSONValue?]()) { $0.append($1) }
        }
        #expect(Set(ids).count == 50)
        #expect(try objects(send("GET", "/posts")).count == 54)
    }
}

struct Unexpected: Error, CustomStringConvertible {
    var response: DemoResponse
    init(_ response: DemoResponse) { self.response = response }
    var description: String { "unexpected response \(response.status): \(response.body)" }
}
