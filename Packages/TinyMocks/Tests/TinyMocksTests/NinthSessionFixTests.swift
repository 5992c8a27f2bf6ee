import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyMocks

/// Known bugs of `MockTransport` left by earlier reviews, fixed in the ninth session.
@Suite(.timeLimit(.minutes(1))) struct NinthSessionFixTests {
    /// MockTransport.swift `send`: a route answering `.status(103)` (or `100`, `199`) handed the interim `1xx` over
    /// as the response, body and all, and one answering `0`, `99` or `1000` a response with that status, which no
    /// live transport does: URLSession and AsyncHTTPClient wait past an interim `1xx` for the final response, and
    /// URLSession fails a status of other than three digits (URLError -1002, "Unsupported response code", seen on
    /// Linux). A test could pass against an answer the app never gets; the request now fails, naming the status and
    /// the URL.
    @Test(arguments: [100, 102, 103, 199, 0, -1, 99, 1000])
    func aStatusNoTransportAnswersWithFailsTheRequest(status: Int) async throws {
        let mock = MockTransport()
        mock.register(.get, "/upgrade", .status(status, body: Data("interim".utf8)))
        let error = try #require(await transportError(mock, request(.get, "https://api.example.com/upgrade")))
        #expect(error.code == .other)
        #expect(error.response == nil && error.body == nil)
        #expect(error.description.contains("GET https://api.example.com/upgrade"), "\(error)")
        #expect(error.description.contains("status \(status)"), "\(error)")
    }

    /// What a live transport does hand over still answers: `101` (URLSession and AsyncHTTPClient hand it over as the
    /// final response, URLSession with the bytes after it as the body, seen on Linux), `200`–`599`, and `600`–`999`
    /// (URLSession hands those over too, seen on Linux).
    @Test(arguments: [101, 200, 599, 600, 999])
    func theStatusesALiveTransportHandsOverAnswer(status: Int) async throws {
        let mock = MockTransport()
        mock.register(.get, "/edge", .status(status, body: Data("body".utf8)))
        let (body, response) = try await mock.send(request(.get, "https://api.example.com/edge"))
        #expect(response.statusCode == status)
        #expect(body == Data("body".utf8))
    }
}
