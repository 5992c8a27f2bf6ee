import TinyEndpoint
import TinyHTTPTransport
import TinyStatefulEndpoint

/// TinyHTTP × completion handler: a controller conforming to `EndpointLoading` loads an endpoint with
/// `load(endpoint:onError:onSuccess:)`, with activity indication and error handling on by default.
public enum TinyHTTPCompletionHandler: Example {
    public static let combination = Combination(
        .tinyHTTP, .completionHandler, file: "Examples/Combinations/TinyHTTP/TinyHTTPCompletionHandler.swift")

    /// A screen showing one todo (a `UIViewController` in an app).
    @MainActor final class TodoDetailController: EndpointLoading {
        let api: TodosAPI
        let endpointLoadingDefaults: EndpointLoadingDefaults
        var title = ""
        var errorMessage: String?

        init(api: TodosAPI, transport: any HTTPTransport) {
            self.api = api
            self.endpointLoadingDefaults = EndpointLoadingDefaults(transport: transport)
        }

        func show(todoID: Int) -> Task<Void, Never> {
            load(endpoint: api.get(id: todoID), onError: { error in self.errorMessage = "\(error)" }) { todo in
                self.title = todo.title
            }
        }
    }

    @MainActor
    public static func run(_ context: ExampleContext) async throws -> ExampleReport {
        let controller = TodoDetailController(
            api: TodosAPI(baseURL: context.baseURL), transport: context.transport)

        await controller.show(todoID: 3).value

        if let error = controller.errorMessage { throw ExampleFailure(error) }
        return ExampleReport(did: "GET /todos/3, onSuccess", result: "title \"\(controller.title)\"")
    }
}
