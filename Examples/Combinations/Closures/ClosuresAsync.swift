/// Closure client × async: call the client's closures.
public enum ClosuresAsync: Example {
    public static let combination = Combination(
        .closures, .async, file: "Examples/Combinations/Closures/ClosuresAsync.swift")

    public static func run(_ context: ExampleContext) async throws -> ExampleReport {
        let client = PostsClient.live(baseURL: context.baseURL, transport: context.transport)

        let all = try await client.fetchPosts(nil)
        let alans = try await client.fetchPosts(3)
        let created = try await client.createPost(
            Post(userId: 1, title: "Hello, TinyKit", body: "Written by an example."))
        guard let newID = created.id else { throw ExampleFailure(created) }
        try await client.deletePost(newID)

        return ExampleReport(
            did: "GET/POST/DELETE /posts?userId=3",
            result: "\(all.count) posts, \(alans.count) by user 3, created #\(newID), deleted #\(newID)")
    }
}
