import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyStatefulEndpoint

/// Review of e0a04be and 620cbc7: behaviour those commits left inconsistent, a regression test now.
@Suite(.timeLimit(.minutes(1))) struct TodayReviewTests {
    let directory = RevalidationTests.directory()

    /// e0a04be made a URL's user name without a password a secret (`https://TOKEN@host`, GitHub's form): it is
    /// redacted from every printed URL. `FileResponseStore.save` still counts only `url.password` as a credential, so
    /// the private response to such a request is written to disk (and the token with it, in the file's key).
    @Test func theResponseToARequestWithATokenAsItsURLsUserNameIsNotWritten() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let url = try #require(URL(string: "https://ghp_SECRET@api.example.com/user/repos"))
        let request = URLRequest(url: url)
        #expect(!HTTPRedaction.default.summary(of: request).contains("ghp_SECRET"))  // a secret to the redaction

        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: [:]))
        await store.save(Data("private repositories".utf8), response, for: request)

        let restored = await store.restore(for: request) { body, _ in String(decoding: body, as: UTF8.self) }
        #expect(restored == nil)
    }
}
