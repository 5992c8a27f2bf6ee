import Testing
import TinyRequestState

private struct User: Sendable, Equatable {
    var name: String
}

private enum APIError: Error {
    case offline
}

/// The README's quick start, compiled and run.
@Suite(.timeLimit(.minutes(1))) struct ReadmeTests {
    @Test func quickStart() {
        var users: RequestState<[User]> = .idle
        users = .loading
        #expect(users.isLoading)
        users = .success([User(name: "Ada")])
        #expect(users.value?.first?.name == "Ada")
        users = .failure("Network error")
        #expect(users == .failure("Network error"))

        let result: Result<[User], APIError> = .failure(.offline)
        users = RequestState(result)
        #expect((users.error?.underlyingError as? APIError) != nil)

        var list = Refreshable<[User]>()
        list.state = .success([User(name: "Ada")])
        list.state = .loading
        #expect(list.value == [User(name: "Ada")])
    }
}
