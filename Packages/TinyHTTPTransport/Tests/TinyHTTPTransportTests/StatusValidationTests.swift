import Foundation
import Testing
import TinyHTTPTransport

@Suite(.timeLimit(.minutes(1))) struct StatusValidationTests {
    let url = URL(fileURLWithPath: "/tmp/example")

    private func response(_ status: Int) throws -> HTTPURLResponse {
        try #require(HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [:]))
    }

    @Test func expected200to300AcceptsSuccessOnly() {
        #expect(expected200to300(200))
        #expect(expected200to300(299))
        #expect(!expected200to300(199))
        #expect(!expected200to300(300))
    }

    @Test func rangesAndSetsOfCodes() {
        let upTo399 = expectedStatus(200..<400)
        #expect(upTo399(304))
        #expect(!upTo399(400))
        let closed = expectedStatus(400...499)
        #expect(closed(404))
        #expect(!closed(500))
        let exact = expectedStatus([200, 304])
        #expect(exact(304))
        #expect(!exact(201))
    }

    @Test func validateStatusPassesAcceptedCodes() throws {
        try validateStatus(response: try response(204), body: Data(), request: nil)
        try validateStatus(
            response: try response(304), body: Data(), request: nil, expectedStatusCode: expectedStatus([304]))
        try validateStatus(response: try response(418), body: Data(), request: nil) { $0 == 418 }
    }

    @Test func validateStatusThrowsWithResponseAndBody() throws {
        let request = URLRequest(method: .get, url: url)
        let body = Data(#"{"error":"gone"}"#.utf8)
        let error = try #require(throws: HTTPTransportError.self) {
            try validateStatus(response: try response(410), body: body, request: request)
        }
        #expect(error.code == .unacceptableStatus(410))
        #expect(error.response?.statusCode == 410)
        #expect(error.body == body)
        #expect(error.request == request)
    }

    /// `expectedStatusCode` decides alone: a 2xx it does not accept is refused, with the response and body.
    @Test func validateStatusRefusesWhatExpectedStatusCodeRefuses() throws {
        let request = URLRequest(method: .get, url: url)
        let body = Data("fresh".utf8)
        let error = try #require(throws: HTTPTransportError.self) {
            try validateStatus(
                response: try response(200), body: body, request: request, expectedStatusCode: expectedStatus([304]))
        }
        #expect(error.code == .unacceptableStatus(200))
        #expect(error.body == body)
        #expect(error.request == request)

        let range = try #require(throws: HTTPTransportError.self) {
            try validateStatus(
                response: try response(404), body: Data(), request: nil, expectedStatusCode: expectedStatus(200..<400))
        }
        #expect(range.code == .unacceptableStatus(404))
        #expect(range.request == nil)
    }

    /// The default accepts 2xx only: a 304 without `expectedStatusCode` is refused.
    @Test func validateStatusDefaultsToExpected200to300() throws {
        let error = try #require(throws: HTTPTransportError.self) {
            try validateStatus(response: try response(304), body: Data(), request: nil)
        }
        #expect(error.code == .unacceptableStatus(304))
    }
}
