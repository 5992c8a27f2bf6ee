// Every code sample of TinyNetworking's README (seeds/003), as Docs/ComingFromTinyNetworking.md edits it: copied
// verbatim, with each edit marked `// Coming from TinyNetworking: <reason>`. Lines marked `// test:` are the test's
// own (where a result goes, which URL the in-process server answers on), not part of any sample.
// The samples keep their real URLs; the test points each endpoint's request at the in-process server
// (`redirected(to:)`), keeping its path, before loading it.
import Foundation
import Testing
import TinyKit
import TinyKitTestServer
import XCTest

// MARK: - The README's samples

// "A Simple Endpoint" (`User` is nested: the root README's tests have a `User` of their own).
extension SeedSamplesTinyNetworkingTests {
    struct User: Codable {
        var name: String
        var location: String?
    }

    func userInfo(login: String) -> Endpoint<User> {
        return Endpoint(json: .get, url: URL(string: "https://api.github.com/users/\(login)")!)
    }
}

// "Authenticated Endpoints"
struct Mailchimp {
    let base = URL(string: "https://us7.api.mailchimp.com/3.0/")!
    var apiKey = env.mailchimpApiKey
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

// "Custom Parsing" (`UIImage` is the test's stand-in on platforms without UIKit: SeedSamplesStandIns.swift)
struct ImageError: Error {}

extension Endpoint where A == UIImage {
    init(imageURL: URL) {
        self = Endpoint(.get, url: imageURL) { data in
            Result {
                guard let d = data, let i = UIImage(data: d) else { throw ImageError() }
                return i
            }
        }
    }
}

// MARK: - What the samples leave to the reader

/// An episode of the show whose campaign content the Mailchimp sample uploads.
struct Episode {
    var title: String
}

/// The sample's configuration.
private struct Configuration {
    let mailchimpApiKey = "secret-key"
}

private let env = Configuration()

private func plainText(_ episode: Episode) -> String { episode.title }
private func html(_ episode: Episode) -> String { "<h1>\(episode.title)</h1>" }

extension String {
    /// The sample's `base64Encoded`.
    fileprivate var base64Encoded: String { Data(utf8).base64EncodedString() }
}

extension Endpoint {
    /// The endpoint with its request sent to `server` instead, keeping the path and query.
    fileprivate func redirected(to server: TestServer) -> Endpoint {
        var endpoint = self
        let path = request.url.map { $0.path + ($0.query.map { "?" + $0 } ?? "") } ?? "/"
        endpoint.request.url = server.url(path)
        return endpoint
    }
}

// MARK: - Tests

@Suite(.timeLimit(.minutes(1))) struct SeedSamplesTinyNetworkingTests {
    @Test func aSimpleEndpointIsAValueToInspect() {
        let sample = userInfo(login: "objcio")

        #expect(sample.request.url?.absoluteString == "https://api.github.com/users/objcio")
        #expect(sample.request.httpMethod == "GET")
        #expect(sample.request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(sample.description == "GET https://api.github.com/users/objcio")
    }

    @Test func loadsWithACompletionHandler() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /users/objcio", response: .json(200, #"{"name":"objc.io","location":"Berlin"}"#))
        let endpoint = userInfo(login: "objcio").redirected(to: server)  // test

        let received = await withCheckedContinuation { continuation in  // test
            URLSession.shared.load(endpoint) { result in
                print(result)
                continuation.resume(returning: result.map(\.location))  // test
            }
        }
        #expect(try received.get() == "Berlin")
    }

    @Test func aCompletionHandlerGetsTheTypedError() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /users/nobody", response: .json(404, #"{"message":"Not Found"}"#))
        let endpoint = userInfo(login: "nobody").redirected(to: server)  // test

        let received = await withCheckedContinuation { continuation in  // test
            URLSession.shared.load(endpoint) { result in
                print(result)
                continuation.resume(returning: result)  // test
            }
        }
        let error = try #require(throws: HTTPTransportError.self) { try received.get() }
        #expect(error.code == .unacceptableStatus(404))
    }

    @Test func loadsWithAsyncAwait() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /users/objcio", response: .json(200, #"{"name":"objc.io"}"#))
        let endpoint = userInfo(login: "objcio").redirected(to: server)  // test

        let result = try await URLSession.shared.load(endpoint)

        #expect(result.name == "objc.io")
        #expect(result.location == nil)
    }

    @Test func authenticatedEndpointsSendTheBodyAndHeader() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("PUT /3.0/campaigns/c42/content", response: .empty(204))

        let endpoint = Mailchimp().addContent(for: Episode(title: "Networking"), toCampaign: "c42")
        #expect(endpoint.request.url?.absoluteString == "https://us7.api.mailchimp.com/3.0/campaigns/c42/content")
        #expect(endpoint.requestError == nil)
        #expect(endpoint.description == "PUT https://us7.api.mailchimp.com/3.0/campaigns/c42/content (57 bytes)")
        try await URLSession.shared.load(endpoint.redirected(to: server))

        let received = try #require(server.requests.first)
        #expect(received.method == "PUT")
        #expect(received.header("Authorization") == "Basic " + Data("anystring:secret-key".utf8).base64EncodedString())
        #expect(received.header("Content-Type") == "application/json")
        let sent = try JSONSerialization.jsonObject(with: received.body) as? [String: String]
        #expect(sent == ["plain_text": "Networking", "html": "<h1>Networking</h1>"])
    }

    @Test func customParsingLoadsFromTheServer() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let png = UIImage.pngSignature + Data(repeating: 7, count: 100)
        await server.route("GET /logo.png", response: TestResponse(headers: ["Content-Type": "image/png"], body: png))

        let image = try await URLSession.shared.load(Endpoint(imageURL: server.url("/logo.png")))
        #expect(image.data == png)
        await #expect(throws: ImageError.self) {
            try await URLSession.shared.load(Endpoint(imageURL: server.url("/echo")))
        }
    }
}

/// "Testing Endpoints", under XCTest as the README writes it.
final class SeedSamplesTinyNetworkingXCTests: XCTestCase {
    func testTheImageEndpointParsesWithoutANetwork() throws {
        let someURL = try XCTUnwrap(URL(string: "https://example.com/logo.png"))  // test
        let invalidData = Data("GIF89a".utf8)  // test
        let validData = UIImage.pngSignature + Data([1, 2, 3])  // test

        // Coming from TinyNetworking: XCTest's assertion is `XCTAssertThrowsError` (the README's `XCTAssertThrows`
        // is not an XCTest function).
        XCTAssertThrowsError(try Endpoint(imageURL: someURL).parse(nil, nil).get())
        XCTAssertThrowsError(try Endpoint(imageURL: someURL).parse(invalidData, nil).get())
        XCTAssertNoThrow(try Endpoint(imageURL: someURL).parse(validData, nil).get())
    }
}
