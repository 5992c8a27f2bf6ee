import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport
import TinyMocks

@testable import TinyStatefulEndpoint

/// Known bugs of `EndpointRegistry` and `FileResponseStore` left by earlier reviews, fixed in the ninth session.
@Suite(.timeLimit(.minutes(1))) struct NinthSessionFixTests {
    let directory = RevalidationTests.directory()

    /// Spellings of `https://api.example.com/text` that name the same resource (RFC 3986 §6.2.2.1: scheme and host
    /// in any case; §6.2.3: a default port the same as none), and of `http://api.example.com/text`.
    static let sameResource = [
        ("https://api.example.com/text", "https://API.Example.com/text"),
        ("https://api.example.com/text", "HTTPS://api.example.com/text"),
        ("https://api.example.com/text", "https://api.example.com:443/text"),
        ("https://api.example.com/text", "HTTPS://API.example.com:443/text"),
        ("http://api.example.com/text", "http://api.example.com:80/text"),
    ]

    /// EndpointRegistry.swift `key(for:)`: the key held the URL as written, so `https://API.example.com/text` and
    /// `https://api.example.com:443/text` got an instance each (two loads, two states, two caches) though they name
    /// the resource of `https://api.example.com/text`.
    @MainActor @Test(arguments: sameResource)
    func oneResourceSpelledTwoWaysGetsOneInstance(written: String, other: String) async throws {
        let mock = MockTransport()
        mock.register(.get, "/text", .text("v1"))
        let registry = EndpointRegistry(transport: mock)
        let first = registry.statefulEndpoint(for: textEndpoint(other))
        #expect(registry.statefulEndpoint(for: textEndpoint(written)) === first)
        // Only the key is normalised: the instance sends the URL it was made with.
        first.load()
        await first.task?.value
        #expect(mock.requests.map { $0.url?.absoluteString } == [other])
    }

    /// What still tells two URLs apart: another port, a default port of the other scheme, the path's case, the
    /// query, the user information.
    @Test(arguments: [
        "https://api.example.com:8443/text", "http://api.example.com:443/text", "http://api.example.com/text",
        "https://api.example.com/Text", "https://api.example.com/text?page=2", "https://me@api.example.com/text",
    ])
    func anotherResourceGetsItsOwnInstance(url: String) {
        let registry = EndpointRegistry(transport: MockTransport())
        let base = registry.statefulEndpoint(for: textEndpoint("https://api.example.com/text"))
        #expect(registry.statefulEndpoint(for: textEndpoint(url)) !== base)
    }

    /// ResponseStore.swift `location(of:)`: the key held the URL as written too, so the answer stored for
    /// `https://API.example.com:443/text` was not offered to `https://api.example.com/text` on the next launch (nor
    /// the other way round); with a secret query parameter, the credentials hash differed the same way.
    @Test(arguments: sameResource, ["", "?access_token=s3cret"])
    func oneResourceSpelledTwoWaysHasOneFile(urls: (String, String), query: String) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, storesCredentialedRequests: true, log: { _ in })
        let written = try #require(URL(string: urls.0 + query))
        let other = try #require(URL(string: urls.1 + query))
        let response = try #require(HTTPURLResponse(url: other, statusCode: 200, httpVersion: nil, headerFields: [:]))
        await store.save(Data("v1".utf8), response, for: URLRequest(url: other))

        #expect(await store.restore(for: URLRequest(url: written), storedText) == "v1")
        #expect(store.location(of: URLRequest(url: written))?.file == store.location(of: URLRequest(url: other))?.file)
        #expect(!storedFiles(in: directory).contains("s3cret"))
    }

    /// ResponseStore.swift `save`: a `Content-Location` or `Link` holding a URL with a secret `HTTPRedaction.default`
    /// hides (an S3 presigned URL's signature, an `access_token`, a password) was written to the file as it came: the
    /// secret sat in plain text in the cache directory, and came back on every launch. Such a field is now left out,
    /// as a `Set-Cookie` is.
    @Test(arguments: [
        ("Content-Location", "/text?token=s3cret"),
        ("Content-Location", "https://user:s3cret@example.com/text"),
        ("Link", #"<https://cdn.example.com/t?X-Amz-Signature=s3cret>; rel="next""#),
        ("Link", #"<https://example.com/t?page=1>; rel="prev", <https://example.com/t?page=3&access_token=s3cret>"#),
        // Found by the review: a token in a fragment (OAuth's implicit flow), the second URL of a word list.
        ("Content-Location", "/callback#access_token=s3cret&token_type=bearer"),
        ("Content-Location", "https://app.example.com/callback#id_token=s3cret"),
        ("Content-Security-Policy", "report-uri https://a.example/r?x=1 https://b.example/r?token=s3cret"),
    ])
    func aFieldHoldingAURLWithASecretIsNotWritten(field: String, value: String) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, log: { _ in })
        let request = textEndpoint().request
        let headers = [field: value, "ETag": #""v1""#]
        let url = try #require(request.url)
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: headers))
        await store.save(Data("v1".utf8), response, for: request)

        let files = storedFiles(in: directory)
        #expect(!files.contains("s3cret") && files.contains(#"\"v1\""#), "\(files)")
        let kept = await store.restore(for: request) { _, response in
            (response.allHeaderFields.count, response.value(forHTTPHeaderField: "ETag"))
        }
        #expect(kept?.0 == 1 && kept?.1 == #""v1""#)
    }

    /// The fields kept are written as they came: URLs without secrets (a fragment without parameters, not sent, is no
    /// secret), and values that are no URL at all; and, from the review, a quoted value with `#` and `=` (an `ETag`,
    /// which revalidation needs) and word lists of URLs without secrets.
    @Test(arguments: [
        [
            "Content-Location": "/text?page=2#top", "Link": #"<https://example.com/t?page=3&q=a,b>; rel="next""#,
            "ETag": #"W/"v1""#, "Cache-Control": "max-age=60, public", "Content-Type": "text/plain; charset=utf-8",
            "Last-Modified": "Wed, 21 Oct 2015 07:28:00 GMT", "X-Progress": "100%", "X-Query": "a?b=c&d",
        ],
        [
            "Content-Location": "/docs/text#top", "ETag": #""v1#x=1""#,
            "Content-Security-Policy": "default-src 'self'; report-uri https://a.example/r?x=1 /r?y=2",
            "Refresh": "5; url=/next?page=2", "Server-Timing": #"cache;desc="HIT", total;dur=12"#,
        ],
    ])
    func fieldsWithoutSecretsAreWrittenAsTheyCame(headers: [String: String]) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory, log: { _ in })
        let request = textEndpoint().request
        let url = try #require(request.url)
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: headers))
        await store.save(Data("v1".utf8), response, for: request)

        let changed = await store.restore(for: request) { _, response in
            headers.filter { response.value(forHTTPHeaderField: $0.key) != $0.value }
        }
        #expect(changed == [:])
    }
}
