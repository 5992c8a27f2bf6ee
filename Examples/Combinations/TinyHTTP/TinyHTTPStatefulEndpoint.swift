import Foundation
import TinyHTTPTransport
import TinyRequestState
import TinyStatefulEndpoint

/// TinyHTTP × StatefulEndpoint: two controllers observe the API's shared `all` endpoint; one load serves both. The
/// endpoint keeps its answer on disk: after a relaunch the list shows at once from the file, then the endpoint
/// revalidates it (a `304` from a server that sends ETags, such as the demo server and jsonplaceholder).
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
        let disk = FileManager.default.temporaryDirectory.appendingPathComponent("tinykit-todos-\(UUID())")
        defer { try? FileManager.default.removeItem(at: disk) }
        let store = FileResponseStore(directory: disk)
        let api = TodosAPI(baseURL: context.baseURL, transport: context.transport, store: store)
        let list = TodosController()
        let remaining = RemainingController()
        list.start(api: api)
        remaining.start(api: api)

        // Wait until the load finished; the controllers were called before `states` saw it.
        for await state in api.all.states where state.isSuccess || state.isFailure { break }
        if case .failure(let error) = api.all.state { throw error }

        // The next launch: a new API (a new endpoint) over the same files shows the stored list before the server
        // answers, then the server's answer to the revalidation, whose status the metrics middleware notes.
        let (statuses, noted) = AsyncStream<String>.makeStream()
        let transport = context.transport.with(
            .metrics { metrics in
                // Conditional only when the stored answer had an ETag (the demo server's has, the mocks' not).
                let conditional = metrics.request.value(forHTTPHeaderField: "If-None-Match") != nil
                let status = (try? metrics.result.get())?.response.statusCode ?? 0
                noted.yield((conditional ? "If-None-Match → " : "GET → ") + "\(status)")
            })
        let relaunched = TodosAPI(baseURL: context.baseURL, transport: transport, store: store)
        let reopened = TodosController()
        reopened.start(api: relaunched)
        var shown: [Int] = []
        for await state in relaunched.all.states {
            if case .success(let todos) = state { shown.append(todos.count) }
            if case .failure(let error) = state { throw error }
            if shown.count == 2 { break }  // from the disk, then revalidated
        }
        noted.finish()
        var answers: [String] = []
        for await answer in statuses { answers.append(answer) }

        return ExampleReport(
            did: "GET /todos; relaunch: disk, then " + answers.joined(separator: ", "),
            result: "list: \(list.titles.count) todos; remaining: \(remaining.remaining); same instance: "
                + "\(api.all === api.all); relaunched: \(shown.map(String.init).joined(separator: " then "))")
    }
}
