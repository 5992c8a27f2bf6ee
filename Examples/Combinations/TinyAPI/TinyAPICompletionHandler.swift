import TinyEndpoint

/// tinyAPI × completion handler: an enum case converted to an `Endpoint`, loaded with a callback.
public enum TinyAPICompletionHandler: Example {
    public static let combination = Combination(
        .tinyAPI, .completionHandler, file: "Examples/Combinations/TinyAPI/TinyAPICompletionHandler.swift")

    public static func run(_ context: ExampleContext) async throws -> ExampleReport {
        let dependency = APIClientDependency(for: context)
        let endpoint = try APIClientDependency.$current.withValue(dependency) {
            try UserEndpoint.detail(id: 2).endpoint(as: User.self)
        }

        // In an app: `URLSession.shared.load(endpoint) { result in … }`.
        let user = try await withCheckedThrowingContinuation { continuation in
            context.transport.load(endpoint) { result in
                // result is a Result<User, any Error>: update the UI, or show the error.
                continuation.resume(with: result)
            }
        }
        return ExampleReport(did: "GET /users/2, callback", result: "\"\(user.name)\" <\(user.email)>")
    }
}
