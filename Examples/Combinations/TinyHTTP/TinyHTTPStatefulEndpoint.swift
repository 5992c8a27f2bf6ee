import TinyRequestState
import TinyStatefulEndpoint

/// TinyHTTP × StatefulEndpoint: two controllers observe the API's shared `all` endpoint; one load serves both.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public enum TinyHTTPStatefulEndpoint: Example {
    public static let combination = Combination(
        .tinyHTTP, .statefulEndpoint, file: "Examples/Combinations/TinyHTTP/TinyHTTPStatefulEndpoint.swift")

    /// The list of todos.
    @MainActor final class TodosController: EndpointLoading {
        var titles: [String] = []

        func start(api: TodosAPI) {
            observe(endpoint: api.all) { controller, todos in
                controller.titles = todos.map(\.title)
            }
        }
    }

    /// How many todos are left.
    @MainActor final class RemainingController: EndpointLoading {
        var remaining = 0

        func start(api: TodosAPI) {
            observe(endpoint: api.all) { controller, todos in
                controller.remaining = todos.filter { !$0.completed }.count
            }
        }
    }

    @MainActor
    public static func run(_ context: ExampleContext) async throws -> ExampleReport {
        let api = TodosAPI(baseURL: context.baseURL, transport: context.transport)
        let list = TodosController()
        let remaining = RemainingController()
        list.start(api: api)
        remaining.start(api: api)

        // Wait until the load finished; the controllers were called before `states` saw it.
        for await state in api.all.states where state.isSuccess || state.isFailure { break }
        if case .failure(let error) = api.all.state { throw error }

        return ExampleReport(
            did: "GET /todos, 2 observers",
            result: "list: \(list.titles.count) todos; remaining: \(remaining.remaining); same instance: "
                + "\(api.all === api.all)")
    }
}
