import TinyEndpoint
import TinyRequestState
import TinyStore

/// tinyAPI's `PostsFeature`: posts loaded with the client's `get(from:path:as:)`, no endpoint enum needed.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct PostsFeature: Feature {
    struct State: Sendable, Equatable {
        var posts: RequestState<[Post]> = .idle
    }

    enum Action: Sendable {
        case loadPosts
        case postsResponse(Result<[Post], TinyAPIError>)
    }

    static var initialState: State { State() }

    static func reducer(state: inout State, action: Action) throws {
        switch action {
        case .loadPosts:
            state.posts = .loading
        case .postsResponse(.success(let posts)):
            state.posts = .success(posts)
        case .postsResponse(.failure(let error)):
            state.posts = .failure(error.localizedDescription)
        }
    }

    static func effect(for action: Action, state: State) async throws -> Action? {
        let dependency = APIClientDependency.current
        switch action {
        case .loadPosts:
            do {
                let posts = try await dependency.client.get(from: dependency.baseURL, path: "/posts", as: [Post].self)
                return .postsResponse(.success(posts))
            } catch {
                return .postsResponse(.failure(TinyAPIError(error)))
            }
        default:
            return nil
        }
    }
}
