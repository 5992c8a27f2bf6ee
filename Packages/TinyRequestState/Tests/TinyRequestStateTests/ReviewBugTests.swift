import Foundation
import Testing
import TinyRequestState

/// Bugs found in review: regression tests now; one still open is marked with `withKnownIssue`.
@Suite(.timeLimit(.minutes(1))) struct ReviewBugTests {
    /// `RequestError` is "a message to show", but it is not a `LocalizedError`: its `localizedDescription` (what
    /// tinyAPI's reducers, `TinyAPIError(_:)` and the standard UIKit error alert show) is Foundation's generic
    /// "The operation could not be completed. (TinyRequestState.RequestError error 1.)", not the message.
    @Test func theLocalizedDescriptionOfARequestErrorIsItsMessage() {
        #expect(RequestError("You are offline").localizedDescription == "You are offline")
        let failure: RequestState<[String]> = .failure("Network error")
        #expect(failure.error?.localizedDescription == "Network error")
        // Passed on inside another error, it keeps its text.
        #expect(RequestError(TaggedError(RequestError("Offline"))).message == "Offline")
    }

    /// `RequestState { … }` from a `@MainActor` model whose closure uses `self`, the README's example: it did not
    /// compile ("sending value of non-Sendable type … risks causing data races") until the initialiser ran `body`
    /// on the caller's actor.
    @MainActor @Test func catchingCompilesOnTheMainActorWithAClosureUsingSelf() async {
        @MainActor final class Model {
            var users: RequestState<[String]> = .idle
            var names = ["Ada"]
            func users() async throws -> [String] { names }
            func load() async { users = await RequestState { try await self.users() } }
        }
        let model = Model()
        await model.load()
        #expect(model.users == .success(["Ada"]))
    }
}

/// An error that passes another one on, as a wrapper in an app would: its text is the wrapped error's
/// `localizedDescription`.
private struct TaggedError: LocalizedError {
    let wrapped: any Error
    init(_ wrapped: any Error) { self.wrapped = wrapped }
    var errorDescription: String? { wrapped.localizedDescription }
}
