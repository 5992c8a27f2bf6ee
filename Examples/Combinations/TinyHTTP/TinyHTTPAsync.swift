import TinyEndpoint
import TinyHTTPTransport

/// TinyHTTP × async: the API type's endpoints loaded with `try await transport.load(_:)`.
public enum TinyHTTPAsync: Example {
    public static let combination = Combination(
        .tinyHTTP, .async, file: "Examples/Combinations/TinyHTTP/TinyHTTPAsync.swift")

    public static func run(_ context: ExampleContext) async throws -> ExampleReport {
        let api = TodosAPI(baseURL: context.baseURL)
        let transport = context.transport

        let todos = try await transport.load(api.get())
        var first = try await transport.load(api.get(id: 1))

        let created = try await transport.load(api.put(todo: Todo(userId: 1, title: "Try TinyKit")))
        first.completed = true
        let updated = try await transport.load(api.put(todo: first))
        guard let newID = created.id else { throw ExampleFailure(created) }
        try await transport.load(api.delete(id: newID))

        let missing: String
        do {
            _ = try await transport.load(api.get(id: 9999))
            missing = "found"
        } catch let error as HTTPTransportError {
            missing = "\(error.response?.statusCode ?? 0)"
        }

        return ExampleReport(
            did: "GET/POST/PUT/DELETE /todos",
            result: "\(todos.count) todos, #1 \"\(first.title)\", created #\(newID), "
                + "updated completed=\(updated.completed), deleted #\(newID), #9999 → \(missing)")
    }
}
