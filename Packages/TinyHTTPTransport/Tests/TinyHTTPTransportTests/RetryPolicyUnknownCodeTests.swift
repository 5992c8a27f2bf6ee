import Foundation
import Testing

@_spi(TinyKit) @testable import TinyHTTPTransport

/// RetryPolicy.swift `isRetryable(_:)`: the failures retried are those "whose `URLError` code is in
/// `retryableErrorCodes`" ("Set the codes you want"), and a failure without a `URLError` counts as its code's stand-in.
@Suite(.timeLimit(.minutes(1))) struct RetryPolicyUnknownCodeTests {
    /// To let libcurl's mid-body close (URLError -1, mapped to `cannotConnect`) count as `cannotConnectToHost`, a
    /// failure's `URLError.unknown` is now treated as no `URLError` at all: a policy whose `retryableErrorCodes` names
    /// `.unknown` (a caller who wants libcurl's other -1 failures, or Apple's "unknown error", retried) no longer
    /// retried such a failure, mapped `.other`. The stand-in was only needed where the `URLError` was not retried:
    /// a code the policy names is now retried before any stand-in is looked at.
    @Test func aPolicyThatNamesUnknownRetriesAnUnknownURLError() async throws {
        let calls = Locked(0)
        let transport = ClosureTransport { _ in
            calls.withLock { $0 += 1 }
            throw URLError(.unknown)
        }
        .with(.retry(RetryPolicy(maxAttempts: 2, baseDelay: .zero, jitter: 0, retryableErrorCodes: [.unknown])))
        let failure = HTTPTransportError(.other, underlyingError: URLError(.unknown))

        _ = try? await transport.send(URLRequest(url: try #require(URL(string: "https://api.example.com/items"))))

        #expect(RetryPolicy(retryableErrorCodes: [.unknown]).isRetryable(failure))
        #expect(calls.withLock { $0 } == 2)
    }
}
