import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

@Suite(.timeLimit(.minutes(1))) struct EndpointTinyHTTPTests {
    let jsonDecoder = JSONDecoder()

    @Test func decodesWithJSONDecoderDecodeResponse() async throws {
        var request = URLRequest(url: try apiURL("/todos"))
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let endpoint = Endpoint<[User]>(request: request, decodeResponse: jsonDecoder.decodeResponse)
        #expect(endpoint.request == request)
        #expect(endpoint.expectedStatusCode(200) && !endpoint.expectedStatusCode(404))
        let users = try await StubTransport(body: #"[{"name":"Ada"}]"#).load(endpoint)
        #expect(users == [User(name: "Ada")])
    }

    @Test func rejectsStatusesOutside2xxWithTheEvidence() async throws {
        let endpoint = Endpoint<[User]>(
            request: URLRequest(url: try apiURL("/todos")), decodeResponse: jsonDecoder.decodeResponse)
        let error = try await #require(throws: HTTPTransportError.self) {
            try await StubTransport(status: 500, body: "boom").load(endpoint)
        }
        #expect(error.code == .unacceptableStatus(500))
        #expect(error.body?.text == "boom")
        #expect(error.request?.url == (try apiURL("/todos")))
    }

    @Test func ignoreResponseSucceedsWhateverTheBody() async throws {
        let endpoint = Endpoint<Void>(
            request: URLRequest(url: try apiURL("/todos/1")), decodeResponse: EndpointExpectation.ignoreResponse)
        try await StubTransport(body: "anything").load(endpoint)
        try await StubTransport(status: 204).load(endpoint)
    }

    @Test func emptyResponseRejectsABody() async throws {
        let endpoint = Endpoint<Void>(
            request: URLRequest(url: try apiURL()), decodeResponse: EndpointExpectation.emptyResponse)
        try await StubTransport(status: 204).load(endpoint)
        let error = try await #require(throws: EndpointError.self) {
            try await StubTransport(body: "surprise").load(endpoint)
        }
        guard case .unexpectedBody(let body) = error else {
            Issue.record("expected unexpectedBody, got \(error)")
            return
        }
        #expect(body.text == "surprise")
    }

    @Test func aCustomValidationSeesEveryStatus() async throws {
        struct Teapot: Error {}
        let endpoint = Endpoint<String>(
            request: URLRequest(url: try apiURL()),
            validateResponse: { response in if response.statusCode == 418 { throw Teapot() } },
            decodeResponse: { data, response in "\(response.statusCode) \(data?.text ?? "")" })
        #expect(try await StubTransport(status: 404, body: "gone").load(endpoint) == "404 gone")
        await #expect(throws: Teapot.self) { try await StubTransport(status: 418).load(endpoint) }
    }

    @Test func successStatusCodeValidationKeepsTheBodyAndRequest() async throws {
        let endpoint = Endpoint<Void>(
            request: URLRequest(url: try apiURL("/x")), validateResponse: EndpointExpectation.successStatusCode,
            decodeResponse: EndpointExpectation.ignoreResponse)
        try await StubTransport(status: 204).load(endpoint)
        let error = try await #require(throws: HTTPTransportError.self) {
            try await StubTransport(status: 403, body: "forbidden").load(endpoint)
        }
        #expect(error.code == .unacceptableStatus(403))
        #expect(error.response?.statusCode == 403)
        #expect(error.body?.text == "forbidden")
        #expect(error.request?.url == (try apiURL("/x")))
    }

    @Test func parseWithoutAnHTTPResponseFailsClearly() throws {
        let endpoint = Endpoint<Void>(
            request: URLRequest(url: try apiURL()), decodeResponse: EndpointExpectation.ignoreResponse)
        let error = try #require(throws: EndpointError.self) { try endpoint.parse(nil, nil).get() }
        #expect(error.description == "the response is not an HTTP response")
        #expect(throws: Never.self) { try endpoint.parse(nil, okResponse()).get() }
    }
}
