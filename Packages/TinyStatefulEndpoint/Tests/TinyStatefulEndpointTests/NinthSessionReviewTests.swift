import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport
import TinyMocks

@testable import TinyStatefulEndpoint

/// What the review of the ninth session found in `FileResponseStore`'s leaving out of fields holding secret URLs.
@Suite(.timeLimit(.minutes(1))) struct NinthSessionReviewTests {
    let directory = RevalidationTests.directory()

    /// ResponseStore.swift (now `HTTPRedaction.redacted(headers:)`, which `hiddenNames(in:)` uses): the URL was checked without its fragment, so a token OAuth's implicit
    /// flow puts there (`#access_token=…`, which `HTTPRedaction.default` leaves out of every text and the logging
    /// middleware redacts in a header value) was written to the file; and a value was read as one URL, so the second
    /// of two URLs in a word list (`report-uri a b`) was never seen. Such fields are now left out too.
    @Test(arguments: [
        ("Content-Location", "/callback#access_token=s3cret&token_type=bearer"),
        ("Content-Location", "https://app.example.com/callback#id_token=s3cret"),
        ("Content-Security-Policy", "report-uri https://a.example/r?x=1 https://b.example/r?token=s3cret"),
    ])
    func aFieldHoldingASecretURLIsNotWritten(field: String, value: String) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, log: { _ in })
        let request = textEndpoint().request
        let url = try #require(request.url)
        let headers = [field: value, "ETag": #""v1""#]
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: headers))
        await store.save(Data("v1".utf8), response, for: request)

        let files = storedFiles(in: directory)
        #expect(!files.contains("s3cret") && files.contains(#"\"v1\""#), "\(files)")
    }

    /// What is still written as it came: a fragment without parameters, a quoted value with `#` and `=` (an `ETag`,
    /// which revalidation needs), word lists of URLs without secrets.
    @Test func fieldsWithoutSecretsAreStillWritten() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, log: { _ in })
        let request = textEndpoint().request
        let headers = [
            "Content-Location": "/docs/text#top", "ETag": #""v1#x=1""#,
            "Content-Security-Policy": "default-src 'self'; report-uri https://a.example/r?x=1 /r?y=2",
            "Refresh": "5; url=/next?page=2", "Server-Timing": #"cache;desc="HIT", total;dur=12"#,
        ]
        let url = try #require(request.url)
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: headers))
        await store.save(Data("v1".utf8), response, for: request)

        let changed = await store.restore(for: request) { _, response in
            headers.filter { response.value(forHTTPHeaderField: $0.key) != $0.value }
        }
        #expect(changed == [:])
    }
}
