import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyMocks

/// Review of the day's mocks fixes (34a4e11) and of the `TinyAPIError` message change (f507aa5) as a mock shows it:
/// each test failed before its fix.
@Suite(.timeLimit(.minutes(1))) struct FixReviewTests {
    /// MockTransport.swift `send` and `nextRouteAnswer`. 34a4e11 dropped an answer a cancelled request gave back
    /// only when a later answer of its route was delivered *before* the give-back. Given back while the later answer
    /// still waited out its delay, it was taken by the next request after that later answer was delivered:
    /// `.status(503), .status(200)` answered 200 and then 503 again, the sequence running backwards, the bug the
    /// commit said it fixed (the README: a route "gives them in order and then repeats the last").
    @Test func anAnswerGivenBackBeforeALaterOneIsDeliveredDoesNotComeAfterIt() async throws {
        let (clock, mock, request, _, second) = try await answerGivenBackWhileALaterOneWaits(releasedFrom: 3)
        clock.release(2)
        let delivered = try await second.value
        let next = try await mock.send(request).1.statusCode

        #expect(delivered == 200)
        #expect(next == 200)
    }

    /// MockTransport.swift `Route.label`. 34a4e11 escaped `&`, `=` and `#` in a route's query values but not `%`, so
    /// the route for the literal value `a%26b` and the one for `a&b` were both listed as `q=a%26b`. The request
    /// `?q=a%26b` (the value `a&b`) does not match the `a%26b` route, and its `noMock` listed that route as
    /// `GET /search?q=a%26b`: the request's own URL, the confusion the fix was made to end, for a query value.
    @Test func theNoMockMessageTellsALiteralPercentInARouteQueryValueFromAnEscape() async throws {
        let mock = MockTransport()
        mock.register(.get, "/search", query: ["q": "a%26b"], .text("found"))
        var sent = URLRequest(url: try #require(URL(string: "https://h/search?q=a%26b")))
        sent.httpMethod = "GET"
        let request = sent

        let error = try await #require(throws: HTTPTransportError.self) { try await mock.send(request) }
        guard case .noMock(_, _, _, _, let routes) = error.underlyingError as? MockError else {
            Issue.record("expected noMock, got \(error)")
            return
        }
        #expect(error.description.contains("GET https://h/search?q=a%26b"))
        #expect(routes != ["GET /search?q=a%26b"])
    }

    /// TinyAPIError.swift (f507aa5): a transport failure's `networkError` message became the underlying error's
    /// `localizedDescription`. The `URLError` a mock throws for a delay past the request's timeout (and the README's
    /// `.failure(URLError(.notConnectedToInternet))`) carries no description on Linux, so the message a screen showed
    /// was Foundation's "The operation could not be completed. (NSURLErrorDomain error -1001.)", where it said
    /// "timed out" before (and the live URLSession's error carries "The request timed out.").
    @Test func aMockTimeoutReadsAsATimeoutInATinyAPIErrorMessage() async throws {
        let mock = MockTransport(clock: NumberedGateClock(releasedFrom: 1))
        mock.register(.get, "/slow", delay: .seconds(5), .text("late"))
        var slow = URLRequest(url: try #require(URL(string: "https://h/slow")))
        slow.timeoutInterval = 1
        let request = slow

        let error = await #expect(throws: TinyAPIError.self) {
            do {
                _ = try await mock.send(request)
            } catch {
                throw TinyAPIError(error)
            }
        }
        guard case .networkError(let message)? = error?.kind else {
            Issue.record("expected a networkError, got \(String(describing: error))")
            return
        }
        #expect(message.lowercased().contains("timed out"), "message: \(message)")
    }
}
