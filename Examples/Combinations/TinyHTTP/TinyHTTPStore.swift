import TinyEndpoint
import TinyHTTPTransport
import TinyRequestState
import TinyStore

/// A feature showing the todos of one user, loaded with the TinyHTTP-style API.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct TodosFeature: Feature {
    struct State: Sendable, Equatable {
        var todos: RequestState<[Todo]> = .idle
    }

    enum Action: Sendable {
        case loadTodos
        case todosResponse(Result<[Todo], any Error>)
    }

    /// Where effects load from; tests and previews run the store inside `TodosFeature.$dependencies.withValue`.
    struct Dependencies: Sendable {
        var api = TodosAPI()
        var transport: any HTTPTransport = URLSessionTransport.shared
    }
    @TaskLocal static var dependencies = Dependencies()

    static var initialState: State { State() }

    static func reducer(state: inout State, action: Action) throws {
        switch action {
        case .loadTodos:
            state.todos = .loading
        case .todosResponse(let result):
            state.todos = RequestState(result)
        }
    }

    static func effect(for action: Action, state: State) async throws -> Action? {
        switch action {
        case .loadTodos:
            do {
                let todos = try await dependencies.transport.load(dependencies.api.get())
                return .todosResponse(.success(todos))
            } catch {
                return .todosResponse(.failure(error))
            }
        case .todosResponse:
            return nil
        }
    }
}

/// TinyHTTP × Store: a `Store` feature whose effect loads one of the API type's endpoints.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public enum TinyHTTPStore: Example {
    public static let combination = Combination(
        .tinyHTTP, .store, file: "Examples/Combinations/TinyHTTP/TinyHTTPStore.swift")

    @MainActor
    public static func run(_ context: ExampleContext) async throws -> ExampleReport {
        let dependencies = TodosFeature.Dependencies(
            api: TodosAPI(baseURL: context.baseURL), transport: context.transport)
        let store = Store<TodosFeature>()

        await TodosFeature.$dependencies.withValue(dependencies) {
            await store.send(.loadTodos).finish()
        }

        guard case .success(let todos) = store.state.todos else { throw ExampleFailure(store.state.todos) }
        let done = todos.filter(\.completed).count
        return ExampleReport(
            did: "send(.loadTodos)", result: "state.todos = .success(\(todos.count) todos), \(done) done")
    }
}
