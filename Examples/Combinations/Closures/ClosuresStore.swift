import TinyRequestState
import TinyStore

/// A feature listing one user's posts through the closure client.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct UserPostsFeature: Feature {
    struct State: Sendable, Equatable {
        var posts: RequestState<[Post]> = .idle
    }

    enum Action: Sendable {
        case loadPosts(userID: Int)
        case postsResponse(Result<[Post], any Error>)
    }

    /// The client effects use: `.live()` in the app; tests and previews run the store inside
    /// `UserPostsFeature.$client.withValue(.mock()) { … }`.
    @TaskLocal static var client = PostsClient.live()

    static var initialState: State { State() }

    static func reducer(state: inout State, action: Action) throws {
        switch action {
        case .loadPosts:
            state.posts = .loading
        case .postsResponse(let result):
            state.posts = RequestState(result)
        }
    }

    static func effect(for action: Action, state: State) async throws -> Action? {
        switch action {
        case .loadPosts(let userID):
            do {
                return .postsResponse(.success(try await client.fetchPosts(userID)))
            } catch {
                return .postsResponse(.failure(error))
            }
        case .postsResponse:
            return nil
        }
    }
}

/// Closure client × Store: a `Store` feature whose effect calls the client; `.mock` swaps it in previews.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public enum ClosuresStore: Example {
    public static let combination = Combination(
        .closures, .store, file: "Examples/Combinations/Closures/ClosuresStore.swift")

    @MainActor
    public static func run(_ context: ExampleContext) async throws -> ExampleReport {
        let store = Store<UserPostsFeature>()
        let client = PostsClient.live(baseURL: context.baseURL, transport: context.transport)
        await UserPostsFeature.$client.withValue(client) {
            await store.send(.loadPosts(userID: 3)).finish()
        }
        guard case .success(let posts) = store.state.posts else { throw ExampleFailure(store.state.posts) }

        let preview = Store<UserPostsFeature>()
        await UserPostsFeature.$client.withValue(.mock()) {
            await preview.send(.loadPosts(userID: 1)).finish()
        }

        let titles = posts.map(\.title).joined(separator: ", ")
        let mocked = preview.state.posts.value?.count ?? 0
        return ExampleReport(did: "send(.loadPosts), live and .mock()", result: "live: \(titles); mock: \(mocked) post")
    }
}
