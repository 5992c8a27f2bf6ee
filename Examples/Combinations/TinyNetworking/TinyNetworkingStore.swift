import TinyEndpoint
import TinyHTTPTransport
import TinyRequestState
import TinyStore

/// A feature listing posts, loaded with TinyNetworking endpoints.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct PostListFeature: Feature {
    struct State: Sendable, Equatable {
        var posts: RequestState<[Post]> = .idle
    }

    enum Action: Sendable {
        case loadPosts
        case postsResponse(Result<[Post], any Error>)
    }

    /// Where effects load from. Features are static, so the dependency is task-local: tests and previews run
    /// the store inside `PostListFeature.$dependencies.withValue(…) { … }`.
    struct Dependencies: Sendable {
        var endpoints = PostEndpoints(baseURL: .jsonPlaceholder)
        var transport: any HTTPTransport = URLSessionTransport.shared
    }
    @TaskLocal static var dependencies = Dependencies()

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
        case .loadPosts:
            do {
                let posts = try await dependencies.transport.load(dependencies.endpoints.all())
                return .postsResponse(.success(posts))
            } catch {
                return .postsResponse(.failure(error))
            }
        case .postsResponse:
            return nil
        }
    }
}

/// TinyNetworking × Store: a `Store` feature whose effect loads an `Endpoint` value into a `RequestState`.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public enum TinyNetworkingStore: Example {
    public static let combination = Combination(
        .tinyNetworking, .store, file: "Examples/Combinations/TinyNetworking/TinyNetworkingStore.swift")

    @MainActor
    public static func run(_ context: ExampleContext) async throws -> ExampleReport {
        let dependencies = PostListFeature.Dependencies(
            endpoints: PostEndpoints(baseURL: context.baseURL), transport: context.transport)
        let store = Store<PostListFeature>()

        await PostListFeature.$dependencies.withValue(dependencies) {
            await store.send(.loadPosts).finish()
        }

        guard case .success(let posts) = store.state.posts else { throw ExampleFailure(store.state.posts) }
        return ExampleReport(
            did: "send(.loadPosts)",
            result: "state.posts = .success(\(posts.count) posts), last \"\(posts.last?.title ?? "")\"")
    }
}
