import TinyEndpoint
import TinyHTTPTransport

/// TinyNetworking × async: load `Endpoint` values with `try await transport.load(_:)`.
public enum TinyNetworkingAsync: Example {
    public static let combination = Combination(
        .tinyNetworking, .async, file: "Examples/Combinations/TinyNetworking/TinyNetworkingAsync.swift")

    public static func run(_ context: ExampleContext) async throws -> ExampleReport {
        let api = PostEndpoints(baseURL: context.baseURL)
        let transport = context.transport  // URLSessionTransport() in an app

        let posts = try await transport.load(api.all())
        let first = try await transport.load(api.post(id: 1))

        let draft = Post(userId: 1, title: "Hello, TinyKit", body: "Written by an example.")
        let created = try await transport.load(api.create(draft))
        let updated = try await transport.load(api.update(Post(userId: 1, title: first.title, body: "Edited."), id: 1))
        guard let newID = created.id else { throw ExampleFailure(created) }
        try await transport.load(api.delete(id: newID))

        let missing: String
        do {
            _ = try await transport.load(api.post(id: 9999))
            missing = "found"
        } catch let error as HTTPTransportError {
            missing = "\(error.response?.statusCode ?? 0)"  // .unacceptableStatus(404)
        }

        return ExampleReport(
            did: "GET/POST/PUT/DELETE /posts",
            result: "\(posts.count) posts, #1 \"\(first.title)\", created #\(newID), "
                + "updated body \"\(updated.body)\", deleted #\(newID), #9999 → \(missing)")
    }
}
