import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport
import TinyMocks
import TinyRequestState
import TinyStatefulEndpoint

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct Todo: Codable, Sendable, Equatable {
    var id: Int?
    var title: String?
}

/// The seed's API class: one method per endpoint, and a shared stateful endpoint for the list.
@MainActor final class TodosAPI {
    private let url = URL(string: "https://jsonplaceholder.typicode.com/todos/")
    private let jsonDecoder = JSONDecoder()
    private let transport: any HTTPTransport

    init(transport: any HTTPTransport) { self.transport = transport }

    lazy var all: StatefulEndpoint<[Todo]> = {
        StatefulEndpoint(endpoint: self.get(), transport: transport)
    }()

    func get() -> Endpoint<[Todo]> {
        var request = URLRequest(method: .get, url: url ?? URL(fileURLWithPath: "/"))
        request.httpAccept(.json)
        return Endpoint(request: request, decodeResponse: self.jsonDecoder.decodeResponse)
    }
}

/// A screen that shows the todos.
@MainActor final class TodosScreen {
    var todos: [Todo] = []
    var states: [String] = []
}

@MainActor @Suite struct TodosAPITests {
    let body = #"[{"id": 1, "title": "Write tests"}, {"id": 2, "title": "Ship"}]"#

    @Test func twoScreensShareOneLoadOfTheAllEndpoint() async {
        let gate = Gate()
        // The mock's delay waits on the gate, so both screens observe before the answer arrives.
        let transport = MockTransport(delay: .milliseconds(1), clock: MockClock { _ in await gate.wait() })
        transport.register(.get, "/todos", .json(body))
        let api = TodosAPI(transport: transport)
        let (list, badge) = (TodosScreen(), TodosScreen())
        for screen in [list, badge] {
            api.all.observe(owner: screen) { screen, state in
                switch state {
                case .idle: screen.states.append("idle")
                case .loading: screen.states.append("loading")
                case .success(let todos):
                    screen.states.append("success")
                    screen.todos = todos
                case .failure(let error): screen.states.append("failure: \(error)")
                }
            }
        }
        await gate.open()
        await waitUntil(api.all) { $0.isSuccessState }
        await api.all.waitForDeliveries()
        #expect(transport.requests.count == 1)
        #expect(transport.requests.first?.header("Accept") == "application/json")
        #expect(list.todos == [Todo(id: 1, title: "Write tests"), Todo(id: 2, title: "Ship")])
        #expect(badge.todos == list.todos)
        #expect(list.states == ["idle", "loading", "success"])
        #expect(badge.states == ["loading", "success"])
    }

    @Test func theSeedsInitializerUsesTheLiveTransportByDefault() {
        let api = TodosAPI(transport: StubTransport(json: body))
        let all = StatefulEndpoint(endpoint: api.get())  // the seed's spelling: the live transport
        all.clear()
        #expect(all.state == .idle)
        #expect(all.endpoint.request.url == api.get().request.url)
    }
}

extension RequestState {
    var isSuccessState: Bool { if case .success = self { true } else { false } }
}
