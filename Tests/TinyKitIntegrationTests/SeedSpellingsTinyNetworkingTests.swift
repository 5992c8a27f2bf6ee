// The spellings TinyNetworking's README (seeds/003) names or implies outside its code samples, as
// Docs/ComingFromTinyNetworking.md's "Other spellings the README names" gives them in TinyKit: one test per row that
// has a TinyKit spelling, so the table cannot rot. The samples themselves are SeedSamplesTinyNetworkingTests'.
import Foundation
import Testing
import TinyKit

@Suite(.timeLimit(.minutes(1))) struct SeedSpellingsTinyNetworkingTests {
    struct User: Codable, Sendable, Equatable {
        var name: String
        var location: String?
    }

    static let url = URL(string: "https://api.github.com/users/objcio")!

    /// "A struct `Endpoint`, which combines a URL request and a way to parse responses": `request` and `parse` are
    /// stored properties, `parse` of type `@Sendable (Data?, URLResponse?) -> Result<A, any Error>`.
    @Test func anEndpointIsARequestAndAParse() throws {
        let endpoint = Endpoint<User>(json: .get, url: Self.url)
        let request: URLRequest = endpoint.request
        let parse: @Sendable (Data?, URLResponse?) -> Result<User, any Error> = endpoint.parse

        #expect(request.url == Self.url)
        #expect(try parse(Data(#"{"name":"objc.io"}"#.utf8), nil).get() == User(name: "objc.io"))
        #expect(throws: (any Error).self) { try parse(nil, nil).get() }
    }

    /// "The JSON encoding and decoding are added as conditional extensions": `Endpoint(json:url:…)` with
    /// TinyNetworking's parameters (`accept:`, `body:`, `headers:`, `expectedStatusCode:`, `timeOutInterval:`,
    /// `query:`, `decoder:`, `encoder:`), and `Endpoint<()>(json:url:body:…)`.
    @Test func theJSONInitialisersKeepTheirParameters() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let endpoint = Endpoint<User>(
            json: .post, url: Self.url, accept: .json, body: User(name: "Ann"), headers: ["X-Trace": "1"],
            expectedStatusCode: { $0 == 201 }, timeOutInterval: 5, query: ["page": "2"], decoder: decoder,
            encoder: JSONEncoder())

        #expect(endpoint.request.url?.absoluteString == "https://api.github.com/users/objcio?page=2")
        #expect(endpoint.request.httpMethod == "POST")
        #expect(endpoint.request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(endpoint.request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(endpoint.request.value(forHTTPHeaderField: "X-Trace") == "1")
        #expect(endpoint.request.timeoutInterval == 5)
        #expect(endpoint.expectedStatusCode(201) && !endpoint.expectedStatusCode(200))
        #expect(try endpoint.parse(Data(#"{"name":"Bo"}"#.utf8), nil).get() == User(name: "Bo"))

        let edit = Endpoint<()>(json: .put, url: Self.url, body: User(name: "Ann"), headers: ["X-Trace": "1"])
        #expect(edit.request.httpBody.map { String(decoding: $0, as: UTF8.self) } == #"{"name":"Ann"}"#)
    }

    /// "parse XML, or another format": `Endpoint(_:url:…parse:)` with any parse function.
    @Test func anyFormatParses() throws {
        let text = Endpoint<String>(.get, url: Self.url, accept: "text/plain") { data, _ in
            Result { String(decoding: data ?? Data(), as: UTF8.self) }
        }
        #expect(text.request.value(forHTTPHeaderField: "Accept") == "text/plain")
        #expect(try text.parse(Data("hello".utf8), nil).get() == "hello")
    }

    /// Combine (Hsieh Min Che's CombinedEndpoint) is not kept: `try await` the transport's `load`.
    @Test func combineIsAsyncLoad() async throws {
        let mock = MockTransport()
        mock.register(.get, "/users/objcio", .json(#"{"name":"objc.io","location":"Berlin"}"#))
        let transport: any HTTPTransport = mock

        let user = try await Task { try await transport.load(Endpoint<User>(json: .get, url: Self.url)) }.value

        #expect(user == User(name: "objc.io", location: "Berlin"))
    }
}
