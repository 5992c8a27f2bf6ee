import Foundation
import Testing
import TinyKit

/// The review of the sixth session's error-message fixes, across packages: what a store prints of an effect's
/// `EndpointError`.
@Suite(.timeLimit(.minutes(1))) struct SixthSessionReviewTests {
    /// The token endpoint's answer.
    struct Tokens: Decodable, Sendable {
        var accessToken: String
        var expiresIn: Int
    }

    /// A feature that signs in in an effect: the token endpoint answers `expires_in` as a string.
    enum SignIn: Feature {
        struct State: Sendable {}
        enum Action: Sendable { case signIn }
        static var initialState: State { State() }
        static func reducer(state: inout State, action: Action) throws {}
        static func effect(for action: Action, state: State) async throws -> Action? {
            let mock = MockTransport()
            mock.register(.post, "/token", .json(#"{"access_token":"s3cr3t-new-token","expires_in":"3600"}"#))
            guard let url = URL(string: "https://auth.example.com/token") else { return nil }
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            _ = try await mock.load(Endpoint<Tokens>(json: .post, url: url, body: ["code": "c"], decoder: decoder))
            return nil
        }
    }

    /// What a store reported.
    @MainActor final class Reports {
        var texts: [String] = []
    }

    /// StoreError.swift `description` (what the default `onError` writes to standard error): an effect's error is
    /// interpolated as it is unless Foundation's, and an `EndpointError`'s `description` holds a preview of the body,
    /// here the token endpoint's with the new access token. The error-message fix tells another library's error by
    /// its `errorDescription` in `HTTPTransportError` for this very case ("a failed refresh's EndpointError printed
    /// the token endpoint's body"); the store, where an effect signing in throws the same error, printed it whole.
    @Test func aStoreErrorDoesNotPrintTheBodyOfAnEffectsEndpointError() async throws {
        let texts = await MainActor.run {
            let reports = Reports()
            let store = Store<SignIn>(onError: { reports.texts += [$0.description] })
            return Task { @MainActor in
                await store.send(.signIn).finish()  // the store lives until its effect has ended
                return reports.texts
            }
        }.value
        let text = try #require(texts.first)
        #expect(!text.contains("s3cr3t-new-token"), "\(text)")
        #expect(text.contains("signIn") && text.contains("expiresIn"), "\(text)")
    }
}
