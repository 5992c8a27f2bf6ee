import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyEndpoint

/// What a `TinyAPIError` from `TinyAPIClient` says about where decoding failed and how often the request was sent.
@Suite(.timeLimit(.minutes(1))) struct TinyAPIErrorEvidenceTests {
    /// The coding path of the `EndpointError` behind a `TinyAPIError`, recording an issue when there is none.
    private func codingPath(of error: TinyAPIError, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        switch error.underlyingError as? EndpointError {
        case .decodingFailed(_, let codingPath, _, _)?, .encodingFailed(_, let codingPath, _)?: return codingPath
        default:
            Issue.record("expected a coding failure, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// A dictionary keyed by ids (`{"users": {"42": {…}}}`) is common in JSON APIs. The standard library's dictionary
    /// coding key gives a key that reads as a number an `intValue` too, and `EndpointError.codingPath(of:)` printed
    /// every key with an `intValue` as an array index: `users[42].name` names an array element that does not exist,
    /// and the key `007` became `[7]`, which is not in the JSON at all.
    @Test func aDictionaryKeyThatReadsAsANumberIsNamedAsWritten() async throws {
        struct Directory: Decodable, Sendable { var users: [String: User] }
        let nested = TinyAPIClient(transport: StubTransport(body: #"{"users":{"42":{"name":1}}}"#))
        let nestedError = try await #require(throws: TinyAPIError.self) {
            try await nested.request(TestAPIEndpoint(), as: Directory.self)
        }
        let padded = TinyAPIClient(transport: StubTransport(body: #"{"007":{"name":1}}"#))
        let paddedError = try await #require(throws: TinyAPIError.self) {
            try await padded.request(TestAPIEndpoint(), as: [String: User].self)
        }
        // The same on the way out: a request body keyed by ids.
        let encodeError = try await #require(throws: TinyAPIError.self) {
            try await TinyAPIClient(transport: StubTransport()).post(
                to: "https://api.example.com", path: "/scores", body: ["42": Double.nan], as: EmptyResponse.self)
        }
        let paths = [nestedError, paddedError, encodeError].map { codingPath(of: $0) }
        #expect(paths == ["users.42.name", "007.name", "42"])
        // An array element is still an index.
        let arrays = TinyAPIClient(transport: StubTransport(body: #"{"users":[{"name":"a"},{"name":null}]}"#))
        struct Listing: Decodable, Sendable { var users: [User] }
        let arrayError = try await #require(throws: TinyAPIError.self) {
            try await arrays.request(TestAPIEndpoint(), as: Listing.self)
        }
        #expect(codingPath(of: arrayError) == "users[1].name")
    }

    /// `HTTPTransportError.attempts` is "how many times the request was sent before this error: `1` unless a retry
    /// middleware sent it again". After two `503`s, a `404` ends the retries; the retry middleware returns that
    /// response (it carries no count) and the status check makes a new error, so the `TinyAPIError` says one attempt
    /// where three were made, and its description does not say the request was retried.
    @Test func aStatusThatEndsTheRetriesSaysHowManyAttemptsWereMade() async throws {
        let statuses = Locked([503, 503, 404])
        let server = StubTransport { request in
            let status = statuses.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
            return (Data(#"{"error":"gone"}"#.utf8), try makeResponse(status, for: request))
        }
        let clock = RecordingClock()
        let client = TinyAPIClient(transport: server.with(.retry(RetryPolicy(maxAttempts: 3, jitter: 0), clock: clock)))
        let error = try await #require(throws: TinyAPIError.self) {
            try await client.request(TestAPIEndpoint(), as: [User].self)
        }
        #expect(error == .httpError(404))
        #expect(server.requests.count == 3)
        #expect(clock.sleeps.count == 2)
        let transportError = try #require(error.underlyingError as? HTTPTransportError)
        #expect(transportError.body?.text == #"{"error":"gone"}"#)
        // Documented (`HTTPTransportError.attempts`): no side channel carries the count past a returned response.
        withKnownIssue("a non-retryable status after retries reports 1 attempt: a response carries no count") {
            #expect(transportError.attempts == 3)
            #expect(error.description.contains("after 3 attempts"))
        }
    }

    /// A status or failure that persists through the retries reaches `TinyAPIError` with its count: its kind is the
    /// status (or a network error), and its description says how many attempts were made.
    @Test func aPersistingStatusOrFailureKeepsItsAttemptsInTheTinyAPIError() async throws {
        let policy = RetryPolicy(maxAttempts: 3, jitter: 0)
        let busy = StubTransport(status: 503, body: "busy")
        let statusError = try await #require(throws: TinyAPIError.self) {
            try await TinyAPIClient(transport: busy.with(.retry(policy, clock: RecordingClock())))
                .request(TestAPIEndpoint(), as: [User].self)
        }
        #expect(statusError == .httpError(503))
        #expect(statusError.localizedDescription == "HTTP Error: 503")
        #expect(statusError.description.contains("after 3 attempts"))
        #expect((statusError.underlyingError as? HTTPTransportError)?.attempts == 3)

        let timingOut = StubTransport(failingWith: URLError(.timedOut))
        let failureError = try await #require(throws: TinyAPIError.self) {
            try await TinyAPIClient(transport: timingOut.with(.retry(policy, clock: RecordingClock())))
                .requestData(TestAPIEndpoint())
        }
        guard case .networkError(let message) = failureError.kind else {
            Issue.record("expected networkError, got \(failureError)")
            return
        }
        // The message is the system's sentence, as tinyAPI's; the count is in the description.
        #expect(message == "the request timed out")  // a URLError without a sentence of its own
        #expect(failureError.description.contains("timed out") && failureError.description.contains("after 3 attempts"))
        #expect(timingOut.requests.count == 3)
    }
}
