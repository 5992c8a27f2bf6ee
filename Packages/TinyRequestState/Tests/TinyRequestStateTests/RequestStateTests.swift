import Foundation
import Testing

@testable import TinyRequestState

private struct User: Sendable, Equatable {
    var id: Int
    var name: String
}

private enum APIError: Error, Equatable {
    case unauthorized
    case server(Int)
}

@Suite(.timeLimit(.minutes(1))) struct RequestStateTests {
    @Test func seedSpellingsCompileAndCompare() {
        var state: RequestState<[User]> = .idle
        state = .loading
        #expect(state == .loading)
        let error: any Error = APIError.server(500)
        state = .failure(error.localizedDescription)
        #expect(state == .failure(error.localizedDescription))
        state = .failure("Network error")
        #expect(state == .failure(RequestError("Network error")))
        #expect(state != .failure("Other"))
        #expect(state != .loading)
    }

    @Test func accessorsReportTheCase() {
        let idle: RequestState<Int> = .idle
        let loading: RequestState<Int> = .loading
        let success: RequestState<Int> = .success(3)
        let failure: RequestState<Int> = .failure("Boom")
        #expect(idle.isIdle && !idle.isLoading && !idle.isSuccess && !idle.isFailure)
        #expect(loading.isLoading && !loading.isIdle)
        #expect(success.isSuccess && success.value == 3 && success.error == nil)
        #expect(failure.isFailure && failure.value == nil && failure.error?.message == "Boom")
        #expect(idle.value == nil && loading.error == nil)
    }

    @Test func aSuccessOfNilIsASuccess() {
        let success: RequestState<Int?> = .success(nil)
        #expect(success.isSuccess && !success.isFailure)
        #expect(!RequestState<Int?>.loading.isSuccess)
    }

    @Test func mapTransformsOnlyTheValue() {
        #expect(RequestState<Int>.success(2).map { $0 * 10 } == .success(20))
        #expect(RequestState<Int>.loading.map { $0 * 10 } == .loading)
        #expect(RequestState<Int>.idle.map { String($0) } == .idle)
        #expect(RequestState<Int>.failure("x").map { $0 * 10 } == .failure("x"))
    }

    @Test func mapKeepsTheTypedErrorOfAFailure() {
        let failure = RequestState<Int>.failure(RequestError(APIError.server(502), message: "Bad gateway"))
        let mapped = failure.map { String($0) }
        #expect(mapped.error?.message == "Bad gateway")
        #expect((mapped.error?.underlyingError as? APIError) == .server(502))
    }

    @Test func mapRethrows() {
        #expect(throws: APIError.unauthorized) {
            try RequestState<Int>.success(1).map { _ -> Int in throw APIError.unauthorized }
        }
    }

    @Test func initFromResultKeepsTheTypedError() throws {
        let success = RequestState(Result<Int, APIError>.success(7))
        #expect(success == .success(7))
        let failure = RequestState(Result<Int, APIError>.failure(.server(503)))
        let error = try #require(failure.error)
        #expect((error.underlyingError as? APIError) == .server(503))
        #expect(error.message == APIError.server(503).localizedDescription)
    }

    @Test func failureFromAnErrorKeepsIt() {
        let state = RequestState<Int>.failure(RequestError(APIError.unauthorized))
        #expect((state.error?.underlyingError as? APIError) == .unauthorized)
        #expect((state.error?.underlyingError as? URLError) == nil)
    }

    @Test func failureFromARequestErrorUsesTheCase() {
        let error = RequestError(APIError.unauthorized, message: "Sign in")
        let state = RequestState<Int>.failure(error)
        #expect(state.error?.message == "Sign in")
        #expect((state.error?.underlyingError as? APIError) == .unauthorized)
    }

    @Test func initCatchingBuildsSuccessOrFailure() async {
        let success = await RequestState { 42 }
        #expect(success == .success(42))
        let failure = await RequestState<Int> { throw APIError.unauthorized }
        #expect((failure.error?.underlyingError as? APIError) == .unauthorized)
    }

    @Test func descriptionNamesTheCase() {
        #expect(RequestState<Int>.idle.description == "idle")
        #expect(RequestState<Int>.loading.description == "loading")
        #expect(RequestState<Int>.success(1).description == "success(1)")
        #expect(RequestState<Int>.failure("Nope").description == "failure(Nope)")
    }

    @Test func hashableWhenTheValueIs() {
        let set: Set<RequestState<Int>> = [.idle, .loading, .success(1), .success(1), .failure("a")]
        #expect(set.count == 4)
    }
}

@Suite(.timeLimit(.minutes(1))) struct RequestErrorTests {
    @Test func equalityComparesMessagesOnly() {
        #expect(RequestError(APIError.unauthorized, message: "Sign in") == RequestError("Sign in"))
        #expect(RequestError("a") != RequestError("b"))
    }

    @Test func stringLiteralAndDescription() {
        let error: RequestError = "Network error"
        #expect(error.message == "Network error")
        #expect(error.description == "Network error")
        #expect(error.underlyingError == nil)
    }

    @Test func wrappingARequestErrorDoesNotNestIt() {
        let inner = RequestError(APIError.server(500), message: "Server down")
        let outer = RequestError(inner)
        #expect(outer.message == "Server down")
        #expect((outer.underlyingError as? APIError) == .server(500))
        #expect((outer.underlyingError as? RequestError) == nil)
        #expect(RequestError(inner, message: "Try later").message == "Try later")
    }

    @Test func defaultMessageIsTheLocalizedDescription() {
        let error = URLError(.timedOut)
        #expect(RequestError(error).message == error.localizedDescription)
    }
}

@Suite(.timeLimit(.minutes(1))) struct RefreshableTests {
    @Test func keepsTheLastValueWhileReloadingAndAfterAFailure() {
        var users = Refreshable<[String]>()
        #expect(users.value == nil && users.state == .idle)
        users.state = .loading
        #expect(users.value == nil && users.state.isLoading)
        users.state = .success(["Ada"])
        #expect(users.value == ["Ada"] && !users.state.isLoading)
        users.state = .loading
        #expect(users.value == ["Ada"] && users.state.isLoading)
        users.state = .failure("Offline")
        #expect(users.value == ["Ada"] && users.state.error?.message == "Offline")
        users.state = .success(["Ada", "Grace"])
        #expect(users.value == ["Ada", "Grace"] && users.state.error == nil)
    }

    @Test func aSuccessOfNilReplacesTheKeptValue() {
        var nickname = Refreshable(RequestState<String?>.success("Ada"))
        nickname.state = .success(nil)
        nickname.state = .loading
        #expect(nickname.value == .some(nil))
        nickname = Refreshable()  // starting over forgets the kept value
        #expect(nickname.value == nil && nickname.state == .idle)
    }

    @Test func startingFromASuccessKeepsItsValue() {
        let users = Refreshable(RequestState<[String]>.success(["Ada"]))
        #expect(users.state == .success(["Ada"]))
        #expect(users.value == ["Ada"])
        let failed = Refreshable(RequestState<[String]>.failure("Offline"))
        #expect(failed.state == .failure("Offline") && failed.value == nil)
    }

    @Test func equalityIncludesTheKeptValue() {
        var a = Refreshable<Int>()
        a.state = .success(1)
        a.state = .loading
        #expect(a != Refreshable(.loading))
        #expect(a.state == .loading)
    }
}
