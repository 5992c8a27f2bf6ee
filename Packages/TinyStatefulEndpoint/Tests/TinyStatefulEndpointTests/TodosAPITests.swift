import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport
import TinyMocks
import TinyRequestState
import TinyStatefulEndpoint

struct Todo: Codable, Sendable, Equatable {
    var id: Int?
    var title: String?
}

/// TinyHTTP's API class as its README declares it: a plain class (not main-actor isolated) whose shared endpoint is
/// a `lazy var`; here with a transport to load through.
final class TodosAPI {
    private let url = URL(string: "https://jsonplaceholder.typicode.com/todos/")!
    private let jsonDecoder = JSONDecoder()
    private let transport: any HTTPTransport

    init(transport: any HTTPTransport = URLSessionTransport.shared) { self.transport = transport }

    lazy var all: StatefulEndpoint<[Todo]> = {
        return StatefulEndpoint(endpoint: self.get(), transport: transport)
    }()

    func get() -> Endpoint<[Todo]> {
        var request = URLRequest(method: .get, url: self.url)
        request.httpAccept(.json)
        return Endpoint(request: request, decodeResponse: self.jsonDecoder.decodeResponse)
    }
}

/// The README's class, unchanged: `StatefulEndpoint(endpoint:)` loads through the live transport.
final class SeedTodosAPI {
    private let url = URL(string: "https://jsonplaceholder.typicode.com/todos/")!
    private let jsonDecoder = JSONDecoder()

    lazy var all: StatefulEndpoint<[Todo]> = {
        return StatefulEndpoint(endpoint: self.get())
    }()

    private func get() -> Endpoint<[Todo]> {
        var request = URLRequest(method: .get, url: self.url)
        request.httpAccept(.json)
        return Endpoint(request: request, decodeResponse: self.jsonDecoder.decodeResponse)
    }
}

/// A screen that shows the todos, observing as TinyHTTP's README does.
@MainActor final class TodosScreen {
    var todos: [Todo] = []
    var states: [String] = []

    func start(_ api: TodosAPI) {
        api.all.observe(owner: self) { state in
            switch state {
            case .idle:
                self.states.append("not yet")
            case .loading:
                self.states.append("loading")
            case .success(let todos):
                self.states.append("got todos")
                self.todos = todos
            case .failure(let error):
                self.states.append("oh no: \(error)")
            }
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct TodosAPITests {
    let body = #"[{"id": 1, "title": "Write tests"}, {"id": 2, "title": "Ship"}]"#

    @MainActor @Test func twoScreensShareOneLoadOfTheAllEndpoint() async {
        let mock = MockTransport()
        mock.register(.get, "/todos", .json(body))
        let api = TodosAPI(transport: mock)
        let (list, badge) = (TodosScreen(), TodosScreen())
        list.start(api)
        badge.start(api)
        for await state in api.all.states where !state.isLoading { break }
        #expect(mock.requests.count == 1)
        #expect(mock.requests.first?.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(list.todos == [Todo(id: 1, title: "Write tests"), Todo(id: 2, title: "Ship")])
        #expect(badge.todos == list.todos)
        #expect(list.states == ["not yet", "loading", "got todos"])
        #expect(badge.states == ["loading", "got todos"])
    }

    @Test func theSeedsLazyVarCreatesTheEndpointOffTheMainActorWithTheLiveTransport() async {
        let api = SeedTodosAPI()
        let all = api.all  // created in a nonisolated context, as in the seed
        #expect(all === api.all)
        #expect(all.endpoint.request.url?.absoluteString == "https://jsonplaceholder.typicode.com/todos/")
        #expect(await all.state == .idle)  // nothing loads until it is observed
    }
}
