import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport
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
    private let transport: any HTTPTransport

    init(transport: any HTTPTransport) { self.transport = transport }

    lazy var all: StatefulEndpoint<[Todo]> = {
        StatefulEndpoint(endpoint: self.get(), transport: transport)
    }()

    func get() -> Endpoint<[Todo]> {
        var request = URLRequest(url: url ?? URL(fileURLWithPath: "/"))
        request.httpMethod = "GET"
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return Endpoint(request: request) { data, _ in
            Result { try JSONDecoder().decode([Todo].self, from: data ?? Data()) }
        }
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
        let body = self.body
        let transport = StubTransport { _, request in
            await gate.wait()  // both screens observe before the answer arrives
            return (Data(body.utf8), try .ok(request))
        }
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
        #expect(await transport.callCount == 1)
        #expect(list.todos == [Todo(id: 1, title: "Write tests"), Todo(id: 2, title: "Ship")])
        #expect(badge.todos == list.todos)
        #expect(list.states == ["idle", "loading", "success"])
        #expect(badge.states == ["loading", "success"])
    }

    @Test func theSeedsInitializerUsesTheLiveTransportByDefault() {
        let api = TodosAPI(transport: StubTransport(json: body))
        let all = StatefulEndpoint(endpoint: api.get())
        #expect(all.state == .idle)
        #expect(all.endpoint.request.url == api.get().request.url)
    }
}

extension RequestState {
    var isSuccessState: Bool { if case .success = self { true } else { false } }
}
