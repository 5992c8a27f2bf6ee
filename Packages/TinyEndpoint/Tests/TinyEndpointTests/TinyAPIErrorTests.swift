import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

@Suite(.timeLimit(.minutes(1))) struct TinyAPIErrorTests {
    @Test func seedSpellingsCompileAndCompareByKind() {
        let failure: Result<[User], TinyAPIError> = .failure(.networkError(URLError(.timedOut).localizedDescription))
        #expect(failure.error?.kind == .networkError(URLError(.timedOut).localizedDescription))
        #expect(TinyAPIError.invalidURL == TinyAPIError(.invalidURL, underlyingError: URLError(.badURL)))
        #expect(TinyAPIError.httpError(404) != .httpError(500))
        #expect(TinyAPIError.decodingError("a") != .decodingError("b"))
        #expect(TinyAPIError.noData != TinyAPIError(.cancelled))
    }

    @Test func matchesInASwitch() {
        func describe(_ error: TinyAPIError) -> String {
            switch error {
            case .httpError(401): "sign in"
            case .noData: "empty"
            default: "other"
            }
        }
        #expect(describe(.httpError(401)) == "sign in")
        #expect(describe(TinyAPIError(.noData, underlyingError: EndpointError.notHTTPResponse)) == "empty")
        #expect(describe(.httpError(500)) == "other")
    }

    @Test func aRawCancellationFromAnUnmappingTransportStaysCancelled() {
        #expect(TinyAPIError(URLError(.cancelled)).kind == .cancelled)
        #expect(TinyAPIError(CancellationError()).kind == .cancelled)
        #expect(TinyAPIError(URLError(.notConnectedToInternet)).kind != .cancelled)
    }

    @Test func classifiesTypedErrorsAndKeepsThem() {
        let cases: [(any Error, TinyAPIError.Kind)] = [
            (HTTPTransportError(.unacceptableStatus(503)), .httpError(503)),
            (HTTPTransportError(.cancelled), .cancelled),
            (CancellationError(), .cancelled),
            (EndpointError.noData(type: "User", response: nil), .noData),
            (EndpointError.invalidURL("x", reason: "r"), .invalidURL),
            (EndpointError.notHTTPResponse, .networkError("the response is not an HTTP response")),
        ]
        for (error, kind) in cases {
            let converted = TinyAPIError(error)
            #expect(converted.kind == kind)
            #expect(converted.underlyingError != nil)
        }
        #expect(TinyAPIError(TinyAPIError.httpError(418)).underlyingError == nil)
        let timeout = TinyAPIError(HTTPTransportError(.timedOut))
        guard case .networkError(let message) = timeout.kind else {
            Issue.record("expected networkError, got \(timeout)")
            return
        }
        #expect(message.contains("timed out"))
    }

    @Test func messagesAreUseful() {
        #expect(TinyAPIError.noData.localizedDescription == "No data received")
        #expect(TinyAPIError.httpError(500).localizedDescription == "HTTP Error: 500")
        #expect(TinyAPIError.networkError("offline").localizedDescription == "Network Error: offline")
        #expect(TinyAPIError.decodingError("bad").localizedDescription == "Decoding failed: bad")
        #expect(TinyAPIError.invalidURL.localizedDescription == "Invalid URL")
        let named = TinyAPIError(EndpointError.invalidURL("ht tp://x", reason: "no scheme"))
        #expect(named.localizedDescription == #"Invalid URL: invalid URL "ht tp://x": no scheme"#)
        #expect(named.description == named.localizedDescription)  // the message holds the detail already
        let withEvidence = TinyAPIError(HTTPTransportError(.unacceptableStatus(404), body: Data("gone".utf8)))
        #expect(withEvidence.description.hasPrefix("HTTP Error: 404 [HTTP request unacceptable status 404"))
        #expect(withEvidence.description.contains("gone"))
    }
}
