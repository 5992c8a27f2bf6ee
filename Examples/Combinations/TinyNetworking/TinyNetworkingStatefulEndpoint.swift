import TinyEndpoint
import TinyRequestState
import TinyStatefulEndpoint

/// TinyNetworking × StatefulEndpoint: one `Endpoint` value shared by two screens, loaded once.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public enum TinyNetworkingStatefulEndpoint: Example {
    public static let combination = Combination(
        .tinyNetworking, .statefulEndpoint,
        file: "Examples/Combinations/TinyNetworking/TinyNetworkingStatefulEndpoint.swift")

    /// A screen listing post titles.
    @MainActor final class PostList {
        var titles: [String] = []
    }

    /// A badge showing how many posts there are.
    @MainActor final class PostCountBadge {
        var text = "…"
    }

    @MainActor
    public static func run(_ context: ExampleContext) async throws -> ExampleReport {
        let posts = StatefulEndpoint(
            endpoint: PostEndpoints(baseURL: context.baseURL).all(), transport: context.transport)

        let list = PostList()
        let badge = PostCountBadge()
        posts.observe(owner: list) { list, state in
            if case .success(let posts) = state { list.titles = posts.map(\.title) }
        }
        posts.observe(owner: badge) { badge, state in
            switch state {
            case .idle, .loading: badge.text = "…"
            case .success(let posts): badge.text = "\(posts.count)"
            case .failure: badge.text = "!"
            }
        }

        // Wait until the load finished; the observers were called before `states` saw it.
        for await state in posts.states where state.isSuccess || state.isFailure { break }
        if case .failure(let error) = posts.state { throw error }

        return ExampleReport(
            did: "GET /posts, 2 observers",
            result: "list: \(list.titles.count) titles, first \"\(list.titles.first ?? "")\"; badge: \(badge.text)")
    }
}
