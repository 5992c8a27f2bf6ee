import TinyEndpoint
import TinyRequestState
import TinyStore

/// tinyAPI's `UserListFeature`: users in a `RequestState`, loaded by an effect through `APIClientDependency`.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct UserListFeature: Feature {
    struct State: Sendable, Equatable {
        var users: RequestState<[User]> = .idle
        var selectedUser: User?
    }

    enum Action: Sendable {
        case loadUsers
        case usersResponse(Result<[User], TinyAPIError>)
        case selectUser(User)
    }

    static var initialState: State { State() }

    static func reducer(state: inout State, action: Action) throws {
        switch action {
        case .loadUsers:
            state.users = .loading
        case .usersResponse(.success(let users)):
            state.users = .success(users)
        case .usersResponse(.failure(let error)):
            state.users = .failure(RequestError(error))
        case .selectUser(let user):
            state.selectedUser = user
        }
    }

    static func effect(for action: Action, state: State) async throws -> Action? {
        let apiClient = APIClientDependency.current.client
        switch action {
        case .loadUsers:
            do {
                let users = try await apiClient.request(UserEndpoint.list, as: [User].self)
                return .usersResponse(.success(users))
            } catch {
                return .usersResponse(.failure(TinyAPIError(error)))
            }
        default:
            return nil
        }
    }
}

/// tinyAPI × Store: the seed's `UserListFeature` and `PostsFeature`, each in a `Store`.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public enum TinyAPIStore: Example {
    public static let combination = Combination(
        .tinyAPI, .store, file: "Examples/Combinations/TinyAPI/TinyAPIStore.swift")

    @MainActor
    public static func run(_ context: ExampleContext) async throws -> ExampleReport {
        let users = Store<UserListFeature>()
        let posts = Store<PostsFeature>()

        await APIClientDependency.$current.withValue(APIClientDependency(for: context)) {
            await users.send(.loadUsers).finish()
            await posts.send(.loadPosts).finish()
        }
        guard case .success(let loaded) = users.state.users else { throw ExampleFailure(users.state.users) }
        if let last = loaded.last { users.send(.selectUser(last)) }
        guard case .success(let loadedPosts) = posts.state.posts else { throw ExampleFailure(posts.state.posts) }

        let selected = users.state.selectedUser?.name ?? ""
        return ExampleReport(
            did: "send(.loadUsers/.selectUser/.loadPosts)",
            result: "users: \(loaded.count), selected \"\(selected)\"; posts: \(loadedPosts.count)")
    }
}
