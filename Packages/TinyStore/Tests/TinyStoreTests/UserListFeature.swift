import TinyRequestState
import TinyStore

// tinyAPI's UserListFeature, with a local stub client in place of `APIClientDependency` (TinyStore cannot depend on
// TinyEndpoint; the examples run it against the real client).

struct ListUser: Sendable, Equatable {
    var id: Int
    var name: String
    var email: String
}

enum StubAPIError: Error, Equatable {
    case networkError(String)
}

protocol UserListClient {
    static func users() async throws -> [ListUser]
}

enum StubUsers: UserListClient {
    static func users() async throws -> [ListUser] {
        [ListUser(id: 1, name: "John Doe", email: "john@example.com")]
    }
}

enum FailingUsers: UserListClient {
    static func users() async throws -> [ListUser] {
        throw StubAPIError.networkError("offline")
    }
}

struct UserListFeature<Client: UserListClient>: Feature {
    struct State: Sendable, Equatable {
        var users: RequestState<[ListUser]> = .idle
        var selectedUser: ListUser?
    }

    enum Action: Sendable {
        case loadUsers
        case usersResponse(Result<[ListUser], StubAPIError>)
        case selectUser(ListUser)
    }

    static var initialState: State { State() }

    static func reducer(state: inout State, action: Action) throws {
        switch action {
        case .loadUsers:
            state.users = .loading
        case .usersResponse(.success(let users)):
            state.users = .success(users)
        case .usersResponse(.failure(let error)):
            state.users = .failure(error.localizedDescription)
        case .selectUser(let user):
            state.selectedUser = user
        }
    }

    static func effect(for action: Action, state: State) async throws -> Action? {
        switch action {
        case .loadUsers:
            do {
                let users = try await Client.users()
                return .usersResponse(.success(users))
            } catch let error as StubAPIError {
                return .usersResponse(.failure(error))
            } catch {
                return .usersResponse(.failure(.networkError(error.localizedDescription)))
            }
        default:
            return nil
        }
    }
}
