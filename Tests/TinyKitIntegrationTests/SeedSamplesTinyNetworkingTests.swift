// The code samples of TinyNetworking's README (seeds/003), compiled against `import TinyKit` and run against the
// in-process test server. Differences from the README, each forced by something the README cannot do here:
// - URLs point at the test server instead of api.github.com / mailchimp.com (call shapes unchanged);
// - `Endpoint<()>(json:url:body:headers:)` throws (an unencodable body is an error, not a crash), so it takes `try`;
// - `UIImage` does not exist on Linux: the custom-parsing sample parses a `PNGImage` the same way;
// - XCTest's assertions are Swift Testing's `#expect`.
import Foundation
import Testing
import TinyKit
import TinyKitTestServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The README's declarations, namespaced so they do not clash with other seeds' `User`.
enum TinyNetworkingSeed {
    struct User: Codable {
        var name: String
        var location: String?
    }

    /// `userInfo(login:)` from the README, on the test server's base URL.
    struct GitHub {
        let base: URL

        func userInfo(login: String) -> Endpoint<User> {
            return Endpoint(json: .get, url: base.appendingRelative("users/\(login)"))
        }
    }

    struct Episode {
        var title: String
    }

    static func plainText(_ episode: Episode) -> String { episode.title }
    static func html(_ episode: Episode) -> String { "<h1>\(episode.title)</h1>" }

    struct Mailchimp {
        let base: URL
        var apiKey = "secret-key"
        var authHeader: [String: String] {
            ["Authorization": "Basic " + "anystring:\(apiKey)".base64Encoded]
        }

        func addContent(for episode: Episode, toCampaign campaignId: String) -> Endpoint<()> {
            struct Edit: Codable {
                var plain_text: String
                var html: String
            }
            let body = Edit(plain_text: plainText(episode), html: html(episode))
            let url = base.appendingPathComponent("campaigns/\(campaignId)/content")
            return Endpoint<()>(json: .put, url: url, body: body, headers: authHeader)
        }
    }

    /// Stands in for `UIImage`: an image made from PNG bytes, or nothing.
    struct PNGImage: Sendable {
        static let signature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var data: Data

        init?(data: Data) {
            guard data.starts(with: Self.signature) else { return nil }
            self.data = data
        }
    }

    struct ImageError: Error {}
}

extension String {
    /// The README's `base64Encoded`, which it leaves to the reader.
    fileprivate var base64Encoded: String { Data(utf8).base64EncodedString() }
}

extension Endpoint where A == TinyNetworkingSeed.PNGImage {
    init(imageURL: URL) {
        self = Endpoint(.get, url: imageURL) { data in
            Result {
                guard let d = data, let i = TinyNetworkingSeed.PNGImage(data: d) else {
                    throw TinyNetworkingSeed.ImageError()
                }
                return i
            }
        }
    }
}

@Suite struct SeedSamplesTinyNetworkingTests {
    typealias Seed = TinyNetworkingSeed

    @Test func aSimpleEndpointIsAValueToInspect() throws {
        let sample = Seed.GitHub(base: try #require(URL(string: "https://api.github.com"))).userInfo(login: "objcio")
        #expect(sample.request.url?.absoluteString == "https://api.github.com/users/objcio")
        #expect(sample.request.httpMethod == "GET")
        #expect(sample.request.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    @Test func loadsWithACompletionHandler() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /users/objcio", response: .json(200, #"{"name":"objc.io","location":"Berlin"}"#))
        let endpoint = Seed.GitHub(base: server.baseURL).userInfo(login: "objcio")

        let result = await withCheckedContinuation { continuation in
            URLSession.shared.load(endpoint) { result in
                print(result)
                continuation.resume(returning: try? result.get().name)
            }
        }
        #expect(result == "objc.io")
    }

    @Test func loadsWithAsyncAwait() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /users/objcio", response: .json(200, #"{"name":"objc.io"}"#))
        let endpoint = Seed.GitHub(base: server.baseURL).userInfo(login: "objcio")

        let result = try await URLSession.shared.load(endpoint)
        #expect(result.name == "objc.io")
        #expect(result.location == nil)
    }

    @Test func authenticatedEndpointsSendTheBodyAndHeader() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("PUT /campaigns/c42/content", response: .empty(204))
        let mailchimp = Seed.Mailchimp(base: server.baseURL)

        let endpoint = mailchimp.addContent(for: Seed.Episode(title: "Networking"), toCampaign: "c42")
        try await URLSessionTransport.shared.load(endpoint)

        let received = try #require(server.requests.first)
        #expect(received.method == "PUT")
        #expect(received.header("Authorization") == "Basic " + Data("anystring:secret-key".utf8).base64EncodedString())
        #expect(received.header("Content-Type") == "application/json")
        let sent = try JSONSerialization.jsonObject(with: received.body) as? [String: String]
        #expect(sent == ["plain_text": "Networking", "html": "<h1>Networking</h1>"])
    }

    @Test func customParsingIsTestableWithoutANetwork() throws {
        let someURL = try #require(URL(string: "https://example.com/logo.png"))
        let invalidData = Data("GIF89a".utf8)
        let validData = Seed.PNGImage.signature + Data([1, 2, 3])
        #expect(throws: Seed.ImageError.self) { try Endpoint(imageURL: someURL).parse(nil, nil).get() }
        #expect(throws: Seed.ImageError.self) { try Endpoint(imageURL: someURL).parse(invalidData, nil).get() }
        #expect(throws: Never.self) { try Endpoint(imageURL: someURL).parse(validData, nil).get() }
    }

    @Test func customParsingLoadsFromTheServer() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let png = Seed.PNGImage.signature + Data(repeating: 7, count: 100)
        await server.route("GET /logo.png", response: TestResponse(headers: ["Content-Type": "image/png"], body: png))

        let image = try await URLSessionTransport.shared.load(Endpoint(imageURL: server.url("/logo.png")))
        #expect(image.data == png)
        await #expect(throws: Seed.ImageError.self) {
            try await URLSessionTransport.shared.load(Endpoint(imageURL: server.url("/echo")))
        }
    }
}
