import Foundation
import Testing
import TinyRequestState

private enum LoginError: Error, Equatable {
    case expired
    case locked
}

/// What a failure's identity is for UI code: its message. Failures that read the same are one state (equal, hashed
/// alike, deduplicated in a set or a diff) while each keeps its own typed error for the code that decides on it.
@Suite(.timeLimit(.minutes(1))) struct FailureIdentityEdgeTests {
    @Test func failuresWithOneMessageAndDifferentErrorsAreOneStateButKeepTheirErrors() throws {
        let expired = RequestState<Int>.failure(RequestError(LoginError.expired, message: "Sign in again"))
        let locked = RequestState<Int>.failure(RequestError(LoginError.locked, message: "Sign in again"))
        let plain = RequestState<Int>.failure("Sign in again")
        #expect(expired == locked && locked == plain)
        #expect(Set([expired, locked, plain]).count == 1)
        #expect(expired.hashValue == plain.hashValue)
        #expect((expired.error?.underlyingError as? LoginError) == .expired)
        #expect((locked.error?.underlyingError as? LoginError) == .locked)
        #expect(plain.error?.underlyingError == nil)
        // Through `map` and `Refreshable` too.
        #expect(expired.map { "\($0)" } == locked.map { "\($0)" })
        #expect((expired.map { "\($0)" }.error?.underlyingError as? LoginError) == .expired)
        #expect(Refreshable(expired) == Refreshable(locked))
    }

    /// `RequestState { … }` that throws a `RequestError` keeps it as it is: its message, and its typed error, not the
    /// `RequestError` itself, as `underlyingError`.
    @Test func aRequestErrorThrownFromTheCatchingInitialiserIsNotWrappedAgain() async throws {
        let state = await RequestState<Int> { throw RequestError(LoginError.locked, message: "Account locked") }
        let error = try #require(state.error)
        #expect(error.message == "Account locked")
        #expect((error.underlyingError as? LoginError) == .locked)
        #expect(error.localizedDescription == "Account locked")
    }
}
