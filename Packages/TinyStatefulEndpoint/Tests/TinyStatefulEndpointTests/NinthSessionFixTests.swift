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
}
