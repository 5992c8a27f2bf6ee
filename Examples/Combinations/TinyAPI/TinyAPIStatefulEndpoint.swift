import TinyEndpoint
import TinyRequestState
import TinyStatefulEndpoint

/// tinyAPI × StatefulEndpoint: an enum case converted to an `Endpoint` and shared by two screens.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public enum TinyAPIStatefulEndpoint: Example {
    public static let combination = Combination(
        .tinyAPI, .statefulEndpoint, file: "Examples/Combinations/TinyAPI/TinyAPIStatefulEndpoint.swift")

    /// A screen listing user names.
    @MainActor final class UserList {
        var names: [String] = []
    }

    /// A picker offering user names.
    @MainActor final class AssigneePicker {
        var options: [String] = []
    }

    @MainActor
    public static func run(_ context: ExampleContext) async throws -> ExampleReport {
        let dependency = APIClientDependency(for: context)
        let endpoint = try APIClientDependency.$current.withValue(dependency) {
            try UserEndpoint.list.endpoint(as: [User].self)
        }
        let users = StatefulEndpoint(endpoint: endpoint, transport: context.transport)

        let list = UserList()
        let picker = AssigneePicker()
        users.observe(owner: list) { list, state in
            if case .success(let users) = state { list.names = users.map(\.name) }
        }
        users.observe(owner: picker) { picker, state in
            if case .success(let users) = state { picker.options = users.map(\.username) }
        }

        // Wait until the load finished; the observers were called before `states` saw it.
        for await state in users.states where state.isSuccess || state.isFailure { break }
        if case .failure(let error) = users.state { throw error }

        return ExampleReport(
            did: "GET /users, 2 observers",
            result: "list: \(list.names.joined(separator: ", ")); picker: \(picker.options.joined(separator: ", "))")
    }
}
