// The endpoint and loading samples of TinyHTTP's README (seeds/001), compiled against `import TinyKit` and run
// against the in-process test server. (Its `StatefulEndpoint` and UIKit `EndpointLoading` samples are
// TinyStatefulEndpoint's.) Differences from the README, each forced by something the README cannot do here:
// - the API classes take the test server's URL in `init(url:)` instead of a hard-coded jsonplaceholder URL, so
//   `shared` is built per test (`TodosAPI.shared(on:)`); they are `final class …: Sendable` for Swift 6;
// - `put(todo:)` throws instead of `try!`, and `delete(todo:)` throws for a todo without id instead of `todo.id!`.
import Foundation
import Testing
import TinyKit
import TinyKitTestServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The README's declarations, namespaced so they do not clash with other seeds' `Todo`.
enum TinyHTTPSeed {
    struct Todo: Codable, Equatable {
        var id: Int?
        var title: String?
    }

    final class TodosAPI: Sendable {

        private let url: URL

        // JSONDecoder is declared manually so you can configure it however needed for the API
        private let jsonDecoder = JSONDecoder()

        // The README's `static let shared = TodosAPI()`, on the test server.
        static func shared(on server: TestServer) -> TodosAPI { TodosAPI(url: server.url("/todos/")) }
        private init(url: URL) { self.url = url }

        func get() -> Endpoint<[Todo]> {

            // TinyHTTP provides extensions for common tasks around configuring a URLRequest:
            var request = URLRequest(method: .get, url: self.url)
            request.httpAccept(.json)

            // pass in any function to decode the response to the actual type
            // JSONDecoder is extended with a function decodeResponse for easy JSON Codable support:
            return Endpoint(request: request, decodeResponse: self.jsonDecoder.decodeResponse)
        }

    }

    struct TodoBody: Encodable {
        var title: String?

        init(todo: Todo) { title = todo.title }
    }

    struct MissingID: Error {}

    /// The README's CRUD API.
    final class CRUDTodosAPI: Sendable {

        let url: URL
        let jsonDecoder = JSONDecoder()
        let jsonEncoder = JSONEncoder()

        init(url: URL) { self.url = url }

        private func get() -> Endpoint<[Todo]> {
            var request = URLRequest(method: .get, url: self.url)
            request.httpAccept(.json)
            return Endpoint(request: request, decodeResponse: self.jsonDecoder.decodeResponse)
        }

        func all() -> Endpoint<[Todo]> { get() }

        func get(id: Int) -> Endpoint<Todo> {
            var request = URLRequest(method: .get, url: urlFor(id: id))
            request.httpAccept(.json)
            return Endpoint(request: request, decodeResponse: self.jsonDecoder.decodeResponse)
        }

        func put(todo: Todo) throws -> Endpoint<Todo> {

            var request: URLRequest
            if let id = todo.id {
                request = URLRequest(method: .put, url: self.urlFor(id: id))
            } else {
                request = URLRequest(method: .post, url: self.url)
            }
            request.httpAccept(.json)
            request.httpContentType(.json)
            request.httpBody = try self.jsonEncoder.encode(TodoBody(todo: todo))

            return Endpoint(request: request, decodeResponse: self.jsonDecoder.decodeResponse)
        }

        func delete(todo: Todo) throws -> Endpoint<Void> {
            guard let id = todo.id else { throw MissingID() }
            var request = URLRequest(method: .delete, url: urlFor(id: id))
            request.httpAccept(.json)
            return Endpoint(request: request, decodeResponse: EndpointExpectation.ignoreResponse)
        }

        private func urlFor(id: Int) -> URL {
            self.url.appendingRelative(String(id))
        }

    }
}

@Suite struct SeedSamplesTinyHTTPTests {
    typealias Seed = TinyHTTPSeed

    @Test func makingAPICallsWithADataTask() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /todos", response: .json(200, #"[{"id":1,"title":"Buy milk"}]"#))

        let endpoint = Seed.TodosAPI.shared(on: server).get()
        let outcome = await withCheckedContinuation { continuation in
            let task = URLSession.shared.dataTask(endpoint: endpoint) { (result) in
                switch result {
                case .success(let todos):
                    print("Yay, got todos: ", todos)
                    continuation.resume(returning: todos.compactMap(\.title))
                case .failure(let error):
                    print("Oh no, an error: ", error)
                    continuation.resume(returning: ["error: \(error)"])
                }
            }
            task.resume()
        }
        #expect(outcome == ["Buy milk"])
        #expect(server.requests.first?.header("Accept") == "application/json")
    }

    @Test func aDataTaskIsNotStartedUntilResumed() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let task = URLSession.shared.dataTask(endpoint: Seed.TodosAPI.shared(on: server).get()) { _ in }
        #expect(task.state == .suspended)
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(server.requests.isEmpty)
        task.cancel()
    }

    @Test func crudEndpointsAgainstTheServer() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /todos/7", response: .json(200, #"{"id":7,"title":"Read"}"#))
        await server.route("PUT /todos/7") { request in .json(200, #"{"id":7,"title":"\#(request.bodyText.count)"}"#) }
        await server.route("POST /todos", response: .json(201, #"{"id":8,"title":"New"}"#))
        await server.route("DELETE /todos/7", response: .empty(204))
        let api = Seed.CRUDTodosAPI(url: server.url("/todos/"))
        let transport = URLSessionTransport.shared

        #expect(try await transport.load(api.get(id: 7)) == Seed.Todo(id: 7, title: "Read"))
        let updated = try await transport.load(api.put(todo: Seed.Todo(id: 7, title: "Reread")))
        #expect(updated.title == String(#"{"title":"Reread"}"#.count))
        let created = try await transport.load(api.put(todo: Seed.Todo(id: nil, title: "New")))
        #expect(created.id == 8)
        try await transport.load(api.delete(todo: Seed.Todo(id: 7, title: nil)))
        #expect(throws: Seed.MissingID.self) { try api.delete(todo: Seed.Todo(id: nil, title: nil)) }

        let methods = server.requests.map { "\($0.method) \($0.path)" }
        #expect(methods == ["GET /todos/7", "PUT /todos/7", "POST /todos", "DELETE /todos/7"])
        #expect(server.requests[1].header("Content-Type") == "application/json")
    }

    @Test func statusCodesAreCheckedAutomatically() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /todos/9", response: .json(404, #"{"error":"not found"}"#))
        let api = Seed.CRUDTodosAPI(url: server.url("/todos/"))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await URLSessionTransport.shared.load(api.get(id: 9))
        }
        #expect(error.code == .unacceptableStatus(404))
        #expect(error.body.map { String(decoding: $0, as: UTF8.self) } == #"{"error":"not found"}"#)
    }
}
