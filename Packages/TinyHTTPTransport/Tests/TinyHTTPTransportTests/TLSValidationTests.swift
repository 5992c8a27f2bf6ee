import Foundation
import Testing

@testable import TinyHTTPTransport

/// TLS certificate validation is never turned off: the transport's session delegate gives server-trust challenges
/// the default handling (the system validates the certificate), whatever else it does with HTTP authentication.
@Suite(.timeLimit(.minutes(1))) struct TLSValidationTests {
    private final class Sender: NSObject, URLAuthenticationChallengeSender {
        func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
        func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
        func cancel(_ challenge: URLAuthenticationChallenge) {}
        func performDefaultHandling(for challenge: URLAuthenticationChallenge) {}
        func rejectProtectionSpaceAndContinue(with challenge: URLAuthenticationChallenge) {}
    }

    private func disposition(for method: String) throws -> URLSession.AuthChallengeDisposition? {
        let handler = SessionDelegate()
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: try #require(URL(string: "https://127.0.0.1:1/")))
        let space = URLProtectionSpace(
            host: "127.0.0.1", port: 1, protocol: "https", realm: nil, authenticationMethod: method)
        let challenge = URLAuthenticationChallenge(
            protectionSpace: space, proposedCredential: nil, previousFailureCount: 0, failureResponse: nil, error: nil,
            sender: Sender())
        nonisolated(unsafe) var answer: URLSession.AuthChallengeDisposition?
        handler.urlSession(session, task: task, didReceive: challenge) { disposition, credential in
            answer = disposition
            #expect(credential == nil)
        }
        return answer
    }

    @Test func serverTrustChallengesGetTheDefaultHandling() throws {
        #expect(try disposition(for: "NSURLAuthenticationMethodServerTrust") == .performDefaultHandling)
    }

    /// On Linux, HTTP authentication challenges are cancelled: FoundationNetworking never completes a `401` carrying
    /// `WWW-Authenticate` otherwise. Apple platforms give them the default handling.
    @Test(arguments: ["NSURLAuthenticationMethodHTTPBasic", "NSURLAuthenticationMethodHTTPDigest"])
    func httpAuthenticationChallengesAreCancelledOnLinux(method: String) throws {
        #if canImport(FoundationNetworking)
            #expect(try disposition(for: method) == .cancelAuthenticationChallenge)
        #else
            #expect(try disposition(for: method) == .performDefaultHandling)
        #endif
    }

    @Test func theLiveConfigurationKeepsTheSystemDefaults() {
        let transport = URLSessionTransport()
        #expect(transport.session.delegate is SessionDelegate)
    }
}
