import TinyEndpoint

/// tinyAPI × async: enum cases sent with `TinyAPIClient.request(_:as:)`; errors arrive as `TinyAPIError`.
public enum TinyAPIAsync: Example {
    public static let combination = Combination(
        .tinyAPI, .async, file: "Examples/Combinations/TinyAPI/TinyAPIAsync.swift")

    public static func run(_ context: ExampleContext) async throws -> ExampleReport {
        let dependency = APIClientDependency(for: context)
        return try await APIClientDependency.$current.withValue(dependency) {
            let client = APIClientDependency.current.client

            let users = try await client.request(UserEndpoint.list, as: [User].self)
            var first = try await client.request(UserEndpoint.detail(id: 1), as: User.self)

            let newUser = User(name: "Katherine Johnson", username: "katherine", email: "kj@example.com")
            let created = try await client.request(UserEndpoint.create(newUser), as: User.self)
            first.email = "ada@analytical.example"
            let updated = try await client.request(UserEndpoint.update(id: 1, user: first), as: User.self)
            guard let newID = created.id else { throw ExampleFailure(created) }
            _ = try await client.request(UserEndpoint.delete(id: newID), as: EmptyResponse.self)

            let missing: String
            do {
                _ = try await client.request(UserEndpoint.detail(id: 9999), as: User.self)
                missing = "found"
            } catch let error as TinyAPIError {
                guard case .httpError(let status) = error.kind else { throw error }
                missing = "httpError(\(status))"
            }

            return ExampleReport(
                did: "GET/POST/PUT/DELETE /users",
                result: "\(users.count) users, #1 \"\(first.name)\", created #\(newID), "
                    + "updated email \(updated.email), deleted #\(newID), #9999 → \(missing)")
        }
    }
}
