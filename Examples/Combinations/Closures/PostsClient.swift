import Foundation
import TinyEndpoint
import TinyHTTPTransport

/// A lightweight client: a struct of async closures. `.live` talks to the server; `.mock` answers from memory,
/// for previews and tests.
struct PostsClient: Sendable {
    var fetchPosts: @Sendable (_ userID: Int?) async throws -> [Post]
    var createPost: @Sendable (_ post: Post) async throws -> Post
    var deletePost: @Sendable (_ id: Int) async throws -> Void
}

extension PostsClient {
    static func live(
        baseURL: URL = .jsonPlaceholder, transport: any HTTPTransport = URLSessionTransport.shared
    ) -> PostsClient {
        let posts = baseURL.appendingRelative("posts")
        return PostsClient(
            fetchPosts: { userID in
                let query = userID.map { ["userId": String($0)] } ?? [:]
                return try await transport.load(Endpoint(json: .get, url: posts, query: query))
            },
            createPost: { post in
                try await transport.load(Endpoint(json: .post, url: posts, body: post))
            },
            deletePost: { id in
                try await transport.load(Endpoint<Void>(.delete, url: posts.appendingRelative(String(id))))
            }
        )
    }

    /// Answers from memory, for previews and tests.
    static func mock(posts: [Post] = [.sample]) -> PostsClient {
        PostsClient(
            fetchPosts: { userID in posts.filter { userID == nil || $0.userId == userID } },
            createPost: { post in
                var created = post
                created.id = (posts.compactMap(\.id).max() ?? 0) + 1
                return created
            },
            deletePost: { _ in }
        )
    }
}

extension Post {
    /// A post for previews and tests.
    static let sample = Post(id: 1, userId: 1, title: "Mock post", body: "From memory.")
}
