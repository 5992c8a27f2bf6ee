import TinyEndpoint
import TinyHTTPTransport

/// TinyNetworking × completion handler: load an `Endpoint` value and get a `Result` in a callback.
public enum TinyNetworkingCompletionHandler: Example {
    public static let combination = Combination(
        .tinyNetworking, .completionHandler,
        file: "Examples/Combinations/TinyNetworking/TinyNetworkingCompletionHandler.swift")

    public static func run(_ context: ExampleContext) async throws -> ExampleReport {
        let api = PostEndpoints(baseURL: context.baseURL)

        // In an app: `URLSession.shared.load(api.post(id: 2)) { result in … }`.
        let post = try await withCheckedThrowingContinuation { continuation in
            context.transport.load(api.post(id: 2)) { result in
                // result is a Result<Post, any Error>: update the UI, or show the error.
                continuation.resume(with: result)
            }
        }
        return ExampleReport(did: "GET /posts/2, callback", result: "#2 \"\(post.title)\"")
    }
}
