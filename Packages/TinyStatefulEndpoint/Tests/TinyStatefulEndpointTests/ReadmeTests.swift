import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport
import TinyRequestState
import TinyStatefulEndpoint

/// A screen of the quick start.
@MainActor private final class Screen {
    var rendered: [RequestState<[Todo]>] = []
    func render(_ state: RequestState<[Todo]>) { rendered.append(state) }
}

/// The off-main-actor example.
actor Badge {
    var count = 0
    func follow(_ todos: StatefulEndpoint<[Todo]>) async {
        todos.loadIfNeeded()
        for await state in todos.states {
            if case .success(let items) = state { count = items.count }
        }
    }
}

/// The README's snippets, compiled and run.
@MainActor @Suite struct ReadmeTests {
    let transport = StubTransport(json: #"[{"id": 1, "title": "Read the README"}]"#)

    @Test func quickStart() async {
        let api = TodosAPI(transport: transport)
        let screen = Screen()

        let todos = StatefulEndpoint(endpoint: api.get(), transport: transport)

        // Screens observe it on the main actor: first the current state, then every change.
        // The first observer starts the load; the owner is held weakly and handed to the closure.
        todos.observe(owner: screen) { screen, state in
            screen.render(state)
        }

        // Async code iterates its states, from any task or actor.
        for await state in todos.states {
            if case .success(let items) = state {
                print("\(items.count) todos")
                break
            }
        }

        // The same instance for the same request, wherever the app asks for it.
        let registry = EndpointRegistry(transport: transport)
        let shared = registry.statefulEndpoint(for: api.get())
        #expect(registry.statefulEndpoint(for: api.get()) === shared)

        await todos.waitForDeliveries()
        #expect(screen.rendered == [.idle, .loading, .success([Todo(id: 1, title: "Read the README")])])
    }

    @Test func observingOffTheMainActor() async {
        let todos = StatefulEndpoint(endpoint: TodosAPI(transport: transport).get(), transport: transport)
        let badge = Badge()
        let following = Task { await badge.follow(todos) }
        while await badge.count == 0 { await Task.yield() }  // no timing: waits for the badge's own iterator
        following.cancel()
        await following.value
        #expect(await badge.count == 1)

        let seen = Collected<String>()
        let log = todos.observeSynchronously(owner: badge) { state in
            print("todos: \(state)")
            seen.append("\(state)")
        }
        #expect(seen.values.first?.hasPrefix("success") == true)
        log.cancel()
    }
}
