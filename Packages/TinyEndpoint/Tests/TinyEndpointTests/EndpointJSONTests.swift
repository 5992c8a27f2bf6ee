import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

@Suite(.timeLimit(.minutes(1))) struct EndpointJSONTests {
    struct Team: Decodable, Equatable {
        struct Member: Decodable, Equatable { var name: String }
        var members: [Member]
    }

    @Test func decodesJSONAndAcceptsJSON() throws {
        let endpoint = Endpoint<User>(json: .get, url: try apiURL("/users/ada"))
        #expect(endpoint.request.httpMethod == "GET")
        #expect(endpoint.request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(endpoint.request.value(forHTTPHeaderField: "Content-Type") == nil)
        let user = try endpoint.parse(Data(#"{"name":"Ada","location":"London"}"#.utf8), okResponse()).get()
        #expect(user == User(name: "Ada", location: "London"))
    }

    @Test func usesTheGivenDecoderQueryAndHeaders() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Snake: Decodable, Equatable { var firstName: String }
        let endpoint = Endpoint<Snake>(
            json: .get, url: try apiURL("/me"), headers: ["X-Key": "k"], query: ["v": "2"], decoder: decoder)
        #expect(endpoint.request.url?.absoluteString == "https://api.example.com/me?v=2")
        #expect(endpoint.request.value(forHTTPHeaderField: "X-Key") == "k")
        #expect(try endpoint.parse(Data(#"{"first_name":"Ada"}"#.utf8), nil).get() == Snake(firstName: "Ada"))
    }

    @Test(arguments: [nil, Data()])
    func anEmptyBodyIsNoDataForARequiredValue(body: Data?) throws {
        let endpoint = Endpoint<User>(json: .get, url: try apiURL())
        let error = try #require(throws: EndpointError.self) { try endpoint.parse(body, okResponse(204)).get() }
        guard case .noData(let type, let response) = error else {
            Issue.record("expected noData, got \(error)")
            return
        }
        #expect(type == "User")
        #expect(response?.statusCode == 204)
        #expect(error.description == "no data: the response had no body to decode as User (status 204)")
    }

    @Test(arguments: [nil, Data()])
    func anEmptyBodyIsNilForAnOptional(body: Data?) throws {
        let endpoint = Endpoint<User?>(json: .get, url: try apiURL())
        #expect(try endpoint.parse(body, okResponse(204)).get() == nil)
        #expect(try endpoint.parse(Data(#"{"name":"Ada"}"#.utf8), nil).get() == User(name: "Ada"))
    }

    @Test(arguments: ["", "{}", #"{"ignored":[1,2]}"#])
    func emptyResponseDecodesFromNothingAndFromAnyJSON(body: String) throws {
        let endpoint = Endpoint<EmptyResponse>(json: .delete, url: try apiURL())
        #expect(try endpoint.parse(Data(body.utf8), okResponse(204)).get() == EmptyResponse())
    }

    @Test func decodingFailureNamesTypeAndCodingPath() throws {
        let endpoint = Endpoint<Team>(json: .get, url: try apiURL())
        let body = Data(#"{"members":[{"name":"Ada"},{"name":7}]}"#.utf8)
        let error = try #require(throws: EndpointError.self) { try endpoint.parse(body, nil).get() }
        guard case .decodingFailed(let type, let codingPath, let underlying, let failedBody) = error else {
            Issue.record("expected decodingFailed, got \(error)")
            return
        }
        #expect(type == "Team")
        #expect(codingPath == "members[1].name")
        #expect(underlying is DecodingError)
        #expect(failedBody == body)
        #expect(error.description.hasPrefix("could not decode Team at members[1].name: type mismatch"))
    }

    @Test func missingKeyIsPartOfTheCodingPath() throws {
        let endpoint = Endpoint<Team>(json: .get, url: try apiURL())
        let error = try #require(throws: EndpointError.self) {
            try endpoint.parse(Data(#"{"members":[{}]}"#.utf8), nil).get()
        }
        guard case .decodingFailed(_, let codingPath, _, _) = error else {
            Issue.record("expected decodingFailed, got \(error)")
            return
        }
        #expect(codingPath == "members[0].name")
        #expect(error.description.contains(#"key "name" not found"#))
    }

    @Test func invalidJSONIsADecodingFailureAtTheTopLevel() throws {
        let endpoint = Endpoint<[User]>(json: .get, url: try apiURL())
        let error = try #require(throws: EndpointError.self) { try endpoint.parse(Data("<html>".utf8), nil).get() }
        #expect(error.description.hasPrefix("could not decode Array<User> at (top level)"))
        #expect(error.description.hasSuffix("body: <html>"))
    }

    @Test func sendsAnEncodableBodyAsJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let endpoint = Endpoint<User>(
            json: .post, url: try apiURL("/users"), body: User(name: "Ada", location: "London"), encoder: encoder)
        #expect(endpoint.requestError == nil)
        #expect(endpoint.request.httpMethod == "POST")
        #expect(endpoint.request.httpBody?.text == #"{"location":"London","name":"Ada"}"#)
        #expect(endpoint.request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(endpoint.request.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    /// Both JSON initialisers: the decoding one and `Endpoint<()>`'s, which once sent `null`.
    @Test func aNilBodySendsNoBodyAndNoContentType() throws {
        let update: User? = nil
        for request in [
            Endpoint<User>(json: .post, url: try apiURL(), body: User?.none).request,
            Endpoint<()>(json: .put, url: try apiURL(), body: update).request,
            Endpoint<()>(json: .delete, url: try apiURL()).request,  // no body at all
        ] {
            #expect(request.httpBody == nil)
            #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
        }
        #expect(Endpoint<()>(json: .put, url: try apiURL(), body: update).requestError == nil)
    }

    @Test func voidJSONEndpointSendsTheBodyAndIgnoresTheResponse() throws {
        let endpoint = Endpoint<()>(
            json: .put, url: try apiURL("/users/1"), body: ["name": "Ada"], headers: ["Authorization": "Basic x"])
        #expect(endpoint.requestError == nil)
        #expect(endpoint.request.httpMethod == "PUT")
        #expect(endpoint.request.httpBody?.text == #"{"name":"Ada"}"#)
        #expect(endpoint.request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(endpoint.request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(endpoint.request.value(forHTTPHeaderField: "Authorization") == "Basic x")
        #expect(throws: Never.self) { try endpoint.parse(Data(), okResponse(204)).get() }
    }

    struct Reading: Encodable {
        var sensor: String
        var values: [Double]
    }

    /// The initialisers no longer throw (TinyNetworking's don't): the failure is kept as `requestError`, to be thrown
    /// when the endpoint is loaded (see RequestErrorTests).
    @Test func anUnencodableBodyIsKeptAsARequestErrorNamingTypeAndPath() throws {
        let body = Reading(sensor: "t1", values: [1, .nan])
        let endpoint = Endpoint<()>(json: .put, url: try apiURL(), body: body)
        let error = try #require(endpoint.requestError)
        guard case .encodingFailed(let type, let codingPath, let underlying) = error else {
            Issue.record("expected encodingFailed, got \(error)")
            return
        }
        #expect(type == "Reading")
        #expect(codingPath == "values[1]")
        #expect(underlying is EncodingError)
        #expect(error.description.hasPrefix("could not encode the request body Reading at values[1]"))
        let decoding = Endpoint<User>(json: .post, url: try apiURL(), body: body)
        guard case .encodingFailed("Reading", "values[1]", _) = decoding.requestError else {
            Issue.record("expected encodingFailed, got \(String(describing: decoding.requestError))")
            return
        }
    }

    @Test func jsonDecoderDecodeResponseFollowsTheSameRules() throws {
        let decoder = JSONDecoder()
        let user: User = try decoder.decodeResponse(Data(#"{"name":"Ada"}"#.utf8), okResponse())
        #expect(user == User(name: "Ada"))
        let none: User? = try decoder.decodeResponse(nil, okResponse(204))
        #expect(none == nil)
        #expect(throws: EndpointError.self) { let _: User = try decoder.decodeResponse(Data(), okResponse(204)) }
    }
}
