// Every code sample of TinyHTTP's README (seeds/001), as Docs/ComingFromTinyHTTP.md edits it: copied verbatim, with
// each edit marked `// Coming from TinyHTTP: <reason>`. Lines marked `// test:` are the test's own (where a result
// goes), not part of any sample. UIKit's names are the test's stand-ins (SeedSamplesStandIns.swift).
// The samples' API classes are singletons with a hard-coded URL: in the test that URL is one in-process server's,
// shared by the (serialized) tests of this file.
import Foundation
import Testing
import TinyKit
import TinyKitTestServer

/// The README's first API class and controller. (`Todo` and `TodosAPI` are namespaced: other tests of this target
/// declare their own.)
enum TinyHTTPSeed {
    // "Declaring API endpoints"
    struct Todo: Codable {
        var id: Int?
        var title: String?
    }

    @MainActor  // Coming from TinyHTTP: Swift 6 needs a `static let shared` to be Sendable; main-actor classes are
    class TodosAPI {

        // Coming from TinyHTTP: test only, the test server's URL (the README's is jsonplaceholder.typicode.com)
        private let url = TinyHTTPSeed.server.baseURL.appendingRelative("todos/")

        // JSONDecoder is declared manually so you can configure it however needed for the API
        private let jsonDecoder = JSONDecoder()

        // The easiest way to share a common API instance is to use a `shared` singleton
        static let shared = TodosAPI()
        private init() {}

        func get() -> Endpoint<[Todo]> {

            // TinyHTTP provides extensions for common tasks around configuring a URLRequest:
            var request = URLRequest(method: .get, url: self.url)
            request.httpAccept(.json)

            // pass in any function to decode the response to the actual type
            // JSONDecoder is extended with a function decodeResponse for easy JSON Codable support:
            return Endpoint(request: request, decodeResponse: self.jsonDecoder.decodeResponse)
        }

    }

    // "UIKit convenience - Making calls in UIViewController classes"
    class TodosTableViewController: UITableViewController, EndpointLoading {

        var todos = [Todo]()

        // MARK: - Lifecycle

        override func viewDidLoad() {
            super.viewDidLoad()

            self.navigationItem.title = "Todos"
            self.tableView.register(UITableViewCell.self, forCellReuseIdentifier: "LabelCell")

            self.load(endpoint: TodosAPI.shared.get()) { (todos) in
                self.todos = todos
                self.tableView.reloadData()
            }
        }

        // MARK: - UITableViewDataSource

        override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
            return self.todos.count
        }

        override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "LabelCell", for: indexPath)

            let todo = self.todos[indexPath.row]
            cell.textLabel?.text = todo.title

            return cell
        }

    }

    /// The server the singletons' URL points at: the first test starts it (``startServer()``); it serves the file.
    @MainActor static var server: TestServer!

    /// The file's server, with the README's routes, started if need be.
    @MainActor static func startServer() async throws -> TestServer {
        if let server { return server }
        let started = try await TestServer.start()
        await started.route(
            "GET /todos", response: .json(200, #"[{"id":1,"title":"Buy milk"},{"id":2,"title":"Walk the dog"}]"#))
        await started.route("GET /todos/7", response: .json(200, #"{"id":7,"title":"Read"}"#))
        await started.route("PUT /todos/7") { request in .json(200, #"{"id":7,"title":"\#(request.bodyText.count)"}"#) }
        await started.route("POST /todos", response: .json(201, #"{"id":8,"title":"New"}"#))
        await started.route("DELETE /todos/7", response: .empty(204))
        server = started
        return started
    }
}

/// The README's complete API class ("What about other HTTP methods?", which contains the `StatefulEndpoint`
/// sample's `all`), and the samples that observe it.
enum TinyHTTPSeedCRUD {
    typealias Todo = TinyHTTPSeed.Todo

    @MainActor  // Coming from TinyHTTP: Swift 6 needs a `static let shared` to be Sendable; main-actor classes are
    class TodosAPI {

        // Coming from TinyHTTP: test only, the test server's URL (the README's is jsonplaceholder.typicode.com)
        let url = TinyHTTPSeed.server.baseURL.appendingRelative("todos/")
        let jsonDecoder = JSONDecoder()
        let jsonEncoder = JSONEncoder()

        static let shared = TodosAPI()

        private init() {}

        lazy var all: StatefulEndpoint<[Todo]> = {
            return StatefulEndpoint(endpoint: self.get())
        }()

        private func get() -> Endpoint<[Todo]> {
            var request = URLRequest(method: .get, url: self.url)
            request.httpAccept(.json)
            return Endpoint(request: request, decodeResponse: self.jsonDecoder.decodeResponse)
        }

        func get(id: Int) -> Endpoint<Todo> {
            var request = URLRequest(method: .get, url: urlFor(id: id))
            request.httpAccept(.json)
            return Endpoint(request: request, decodeResponse: self.jsonDecoder.decodeResponse)
        }

        func put(todo: Todo) -> Endpoint<Todo> {

            var request: URLRequest
            if let id = todo.id {
                request = URLRequest(method: .put, url: self.urlFor(id: id))
            } else {
                request = URLRequest(method: .post, url: self.url)
            }
            request.httpAccept(.json)
            request.httpContentType(.json)
            request.httpBody = try! self.jsonEncoder.encode(TodoBody(todo: todo))

            return Endpoint(request: request, decodeResponse: self.jsonDecoder.decodeResponse)
        }

        func delete(todo: Todo) -> Endpoint<Void> {
            var request = URLRequest(method: .delete, url: urlFor(id: todo.id!))
            request.httpAccept(.json)
            return Endpoint(request: request, decodeResponse: EndpointExpectation.ignoreResponse)
        }

        private func urlFor(id: Int) -> URL {
            self.url.appendingRelative(String(id))
        }

    }

    /// What `put(todo:)` sends: the README leaves it to the reader.
    struct TodoBody: Encodable {
        var title: String?
        init(todo: Todo) { title = todo.title }
    }

    /// Where the README's `observe(owner: self)` sample runs: any object.
    @MainActor final class TodosBadge {
        var seen: [String] = []  // test

        func start() {
            TodosAPI.shared.all.observe(owner: self) { (state) in
                // swift-format-ignore
                switch(state) {
                case .idle:  // Coming from TinyHTTP: TinyKit's RequestState calls the state before a load `.idle`
                    print("not yet")
                    self.seen.append("not yet")  // test
                case .loading:  // Coming from TinyHTTP: `.loading` holds no value (the last one is `all.value`)
                    print("loading")
                    self.seen.append("loading")  // test
                case .success(let todos):
                    print("got todos: ", todos)
                    self.seen.append("got \(todos.count) todos")  // test
                case .failure(let error):
                    print("oh no: ", error)
                    self.seen.append("oh no: \(error)")  // test
                }
            }
        }
    }

    // "Or use the `EndpointLoading` extension again which provides an `observe(endpoint:)` method" (its `// ...`
    // filled in from the first controller).
    class TodosTableViewController: UITableViewController, EndpointLoading {

        // ...
        var todos = [Todo]()
        let todosResource = TodosAPI.shared.all
        let todosAPI = TodosAPI.shared  // test: the delete sample's `self.todosAPI`

        // ...

        override func viewDidLoad() {
            // ...

            observe(endpoint: self.todosResource) { todos in
                self.todos = todos
                self.tableView.reloadData()
            }

        }

        /// Where the README's delete sample runs.
        func delete(todo: Todo) {
            self.load(endpoint: self.todosAPI.delete(todo: todo)) { result in
                print("Todo was deleted")
                self.deleted.append(todo.id ?? 0)  // test
            }
        }
        var deleted: [Int] = []  // test

        override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
            return self.todos.count
        }
    }
}

// MARK: - Tests

@MainActor @Suite(.serialized, .timeLimit(.minutes(1))) struct SeedSamplesTinyHTTPTests {
    typealias Todo = TinyHTTPSeed.Todo
    typealias TodosAPI = TinyHTTPSeed.TodosAPI

    @Test func makingAPICallsWithADataTask() async throws {
        let server = try await TinyHTTPSeed.startServer()
        let before = server.requests.count  // test

        let outcome = await withCheckedContinuation { continuation in  // test
            let endpoint = TodosAPI.shared.get()
            let task = URLSession.shared.dataTask(endpoint: endpoint) { (result) in
                // swift-format-ignore
                switch(result) {
                case .success(let todos):
                    print("Yay, got todos: ", todos)
                    continuation.resume(returning: todos.compactMap(\.title))  // test
                case .failure(let error):
                    print("Oh no, an error: ", error)
                    continuation.resume(returning: ["error: \(error)"])  // test
                }
            }
            task.resume()
        }

        #expect(outcome == ["Buy milk", "Walk the dog"])
        #expect(server.requests[before...].first?.header("Accept") == "application/json")
    }

    @Test func aDataTaskIsNotStartedUntilResumed() async throws {
        let server = try await TinyHTTPSeed.startServer()
        let before = server.requests.count
        let task = URLSession.shared.dataTask(endpoint: TodosAPI.shared.get()) { _ in }
        #expect(task.state == .suspended)
        try await Task.sleep(for: .milliseconds(100))
        #expect(server.requests.count == before)
        task.cancel()
    }

    @Test func aControllerLoadsTheTodos() async throws {
        _ = try await TinyHTTPSeed.startServer()
        let controller = TinyHTTPSeed.TodosTableViewController()

        controller.viewDidLoad()

        #expect(controller.navigationItem.title == "Todos")
        try await waitUntil { controller.tableView.reloadCount == 1 }
        #expect(controller.tableView.visibleCells.map { $0.textLabel?.text } == ["Buy milk", "Walk the dog"])
    }

    @Test func screensShareOneLoadOfTheStatefulEndpoint() async throws {
        let server = try await TinyHTTPSeed.startServer()
        TinyHTTPSeedCRUD.TodosAPI.shared.all.clear()
        let before = server.requests.count
        let (badge, list) = (TinyHTTPSeedCRUD.TodosBadge(), TinyHTTPSeedCRUD.TodosBadge())

        badge.start()
        list.start()

        try await waitUntil { badge.seen.count == 3 && list.seen.count == 2 }
        #expect(badge.seen == ["not yet", "loading", "got 2 todos"])
        #expect(list.seen == ["loading", "got 2 todos"])
        #expect(server.requests.count - before == 1)
    }

    @Test func aControllerObservesTheSharedEndpointAndDeletes() async throws {
        let server = try await TinyHTTPSeed.startServer()
        TinyHTTPSeedCRUD.TodosAPI.shared.all.clear()
        let controller = TinyHTTPSeedCRUD.TodosTableViewController()

        controller.viewDidLoad()
        try await waitUntil { controller.todos.count == 2 }
        #expect(controller.tableView.reloadCount == 1)

        controller.delete(todo: Todo(id: 7, title: "Read"))
        try await waitUntil { controller.deleted == [7] }
        #expect(server.requests.last.map { "\($0.method) \($0.path)" } == "DELETE /todos/7")
    }

    @Test func crudEndpointsLoadedManually() async throws {
        let server = try await TinyHTTPSeed.startServer()
        let before = server.requests.count
        let api = TinyHTTPSeedCRUD.TodosAPI.shared

        let read = try await URLSession.shared.load(api.get(id: 7))
        #expect(read.id == 7 && read.title == "Read")
        let updated = try await URLSession.shared.load(api.put(todo: Todo(id: 7, title: "Reread")))
        #expect(updated.title == String(#"{"title":"Reread"}"#.count))
        let created = try await URLSession.shared.load(api.put(todo: Todo(id: nil, title: "New")))
        #expect(created.id == 8)
        try await URLSession.shared.load(api.delete(todo: Todo(id: 7, title: nil)))

        let seen = server.requests[before...].map { "\($0.method) \($0.path) \($0.header("Content-Type") ?? "-")" }
        #expect(
            seen == [
                // The README's base URL ends with a slash, and so does the POST's path.
                "GET /todos/7 -", "PUT /todos/7 application/json", "POST /todos/ application/json", "DELETE /todos/7 -",
            ])
    }

    @Test func statusCodesAreCheckedAutomatically() async throws {
        _ = try await TinyHTTPSeed.startServer()
        let error = try await #require(throws: HTTPTransportError.self) {
            try await URLSession.shared.load(TinyHTTPSeedCRUD.TodosAPI.shared.get(id: 9))
        }
        #expect(error.code == .unacceptableStatus(404))
        #expect(error.body.map { String(decoding: $0, as: UTF8.self) } == #"{"error":"no route for GET /todos/9"}"#)
    }

    /// Waits (up to 10 s) until `condition` holds, checking every 10 ms.
    func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
