import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport

@testable import TinyMocks

@Suite(.timeLimit(.minutes(1))) struct RouteTests {
    @Test func aRouteAnswersWithStatusHeadersAndBody() async throws {
        let mock = MockTransport()
        mock.register(.put, "/users/1", .status(202, headers: ["X-Trace": "abc"], body: Data("ok".utf8)))
        let (body, response) = try await mock.send(request(.put, "https://api.example.com/users/1/"))
        #expect(response.statusCode == 202)
        #expect(response.value(forHTTPHeaderField: "x-trace") == "abc")
        #expect(body == Data("ok".utf8))
    }

    @Test func encodableBodiesAreJSON() async throws {
        let mock = MockTransport()
        mock.register(.get, "/users", try .json([User(id: 3, name: "Ada", email: "ada@example.com")], status: 200))
        mock.register(.get, "/text", .text("hello", status: 418))
        let (body, response) = try await mock.send(request(.get, "https://api.example.com/users"))
        #expect(try JSONDecoder().decode([User].self, from: body).map(\.name) == ["Ada"])
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let (text, teapot) = try await mock.send(request(.get, "https://api.example.com/text"))
        #expect(String(decoding: text, as: UTF8.self) == "hello")
        #expect(teapot.statusCode == 418)
        #expect(teapot.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
    }

    @Test func anExplicitContentTypeWins() throws {
        let response = MockResponse.json("{}", headers: ["content-type": "application/problem+json"])
        guard case .status(_, let headers, _) = response else {
            Issue.record("expected a response")
            return
        }
        #expect(headers == ["content-type": "application/problem+json"])
    }

    @Test func statusHeadersAndEncoderAreUsed() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        struct Page: Encodable { var totalCount = 1 }
        let responses = [
            try MockResponse.json(Page(), status: 201, headers: ["X-Trace": "a"], encoder: encoder),
            MockResponse.json(#"{"total_count":1}"#, status: 201, headers: ["X-Trace": "a"]),
        ]
        for response in responses {
            guard case .status(let status, let headers, let body) = response else {
                Issue.record("expected a response")
                continue
            }
            #expect(status == 201)
            #expect(headers == ["X-Trace": "a", "Content-Type": "application/json"])
            #expect(body == Data(#"{"total_count":1}"#.utf8))
        }
        guard case .status(let status, let headers, _) = MockResponse.text("hi", status: 202, headers: ["X-Trace": "b"])
        else {
            Issue.record("expected a response")
            return
        }
        #expect(status == 202)
        #expect(headers == ["X-Trace": "b", "Content-Type": "text/plain; charset=utf-8"])
    }

    @Test func mockErrorsDescribeWhatWentWrong() {
        #expect(
            MockError.unreadableFile(path: "/m/mock_get_a.json", reason: "a directory").description
                == "The mock file /m/mock_get_a.json exists but cannot be read: a directory")
        #expect(
            MockError.unsafePath(path: "/a/../b", reason: "it has a dot segment").description
                == "The request path /a/../b cannot name a mock file: it has a dot segment")
        #expect(
            MockError.cannotEncode(type: "Page", reason: "NaN").description
                == "Cannot encode the mock response of type Page as JSON: NaN")
    }

    /// A value whose encoding always fails.
    struct Unencodable: Encodable {
        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(
                Double.nan, EncodingError.Context(codingPath: [], debugDescription: "NaN is not JSON"))
        }
    }

    @Test func anEncodingFailureSurfaces() throws {
        #expect {
            _ = try MockResponse.json(Unencodable())
        } throws: { error in
            guard case .cannotEncode(let type, let reason) = error as? MockError else { return false }
            return type == "Unencodable" && reason.contains("NaN is not JSON")
        }
    }

    @Test(arguments: [
        (URLError.Code.notConnectedToInternet, HTTPTransportError.Code.cannotConnect),
        (.cannotConnectToHost, .cannotConnect),
        (.timedOut, .timedOut),
        (.cancelled, .cancelled),
        (.badServerResponse, .other),
    ])
    func urlErrorsBecomeTransportErrors(urlError: URLError.Code, expected: HTTPTransportError.Code) async throws {
        let mock = MockTransport()
        mock.register(.get, "/offline", .failure(URLError(urlError)))
        let error = try #require(await transportError(mock, request(.get, "https://api.example.com/offline")))
        #expect(error.code == expected)
        #expect((error.underlyingError as? URLError)?.code == urlError)
        #expect(error.request?.url?.path == "/offline")
    }

    @Test func transportErrorsPassThroughAndOtherErrorsAreWrapped() async throws {
        struct Boom: Error {}
        let mock = MockTransport()
        mock.register(.get, "/timeout", .failure(HTTPTransportError(.timedOut, message: "slow")))
        mock.register(.get, "/boom", .failure(Boom()))
        let timeout = try #require(await transportError(mock, request(.get, "https://h/timeout")))
        #expect(timeout.code == .timedOut)
        #expect(timeout.message == "slow")
        #expect(timeout.request != nil)
        let boom = try #require(await transportError(mock, request(.get, "https://h/boom")))
        #expect(boom.code == .other)
        #expect(boom.underlyingError is Boom)
    }

    @Test func aSequenceAnswersInOrderThenRepeatsItsLast() async throws {
        let mock = MockTransport()
        mock.register(.get, "/flaky", .status(503), .failure(URLError(.timedOut)), .status(200))
        let url = "https://api.example.com/flaky"
        let first = try await mock.send(request(.get, url)).1.statusCode
        let second = await transportError(mock, try request(.get, url))?.code
        let third = try await mock.send(request(.get, url)).1.statusCode
        let fourth = try await mock.send(request(.get, url)).1.statusCode
        #expect(first == 503)
        #expect(second == .timedOut)
        #expect(third == 200)
        #expect(fourth == 200)
    }

    @Test func queriesNarrowRoutesAndTheMostSpecificWins() async throws {
        let mock = MockTransport()
        mock.register(.get, "/search", .text("any"))
        mock.register(.get, "/search", query: ["q": "swift"], .text("swift"))
        mock.register(.get, "/search", query: ["q": "swift", "page": "2"], .text("swift, page 2"))
        let cases = [
            ("/search", "any"), ("/search?q=rust", "any"), ("/search?q=swift", "swift"),
            ("/search?page=2&q=swift&x=1", "swift, page 2"), ("/search?page=2", "any"),
        ]
        for (path, expected) in cases {
            let (body, _) = try await mock.send(request(.get, "https://h" + path))
            #expect(String(decoding: body, as: UTF8.self) == expected, "\(path)")
        }
    }

    @Test func theMostSpecificRouteWinsEvenWhenRegisteredFirst() async throws {
        let mock = MockTransport()
        mock.register(.get, "/search", query: ["q": "swift"], .text("swift"))
        mock.register(.get, "/search", .text("any"))
        let (body, _) = try await mock.send(request(.get, "https://h/search?q=swift"))
        #expect(String(decoding: body, as: UTF8.self) == "swift")
    }

    @Test func aRequestOfACancelledTaskUsesUpNoAnswer() async throws {
        let mock = MockTransport()
        mock.register(.get, "/next", .text("first"), .text("second"))
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await mock.send(request(.get, "https://h/next"))
        }
        let error = try await #require(throws: HTTPTransportError.self) { try await cancelled.value }
        #expect(error.code == .cancelled)
        let (body, _) = try await mock.send(request(.get, "https://h/next"))
        #expect(String(decoding: body, as: UTF8.self) == "first")
    }

    @Test func theLastRegisteredRouteWinsAndRoutesComeBeforeFiles() async throws {
        let mock = MockTransport(files: fixtures)
        let url = "https://api.example.com/users"
        let (fromFile, _) = try await mock.send(request(.get, url))
        #expect(try JSONDecoder().decode([User].self, from: fromFile).count == 2)
        mock.register(.get, "/users", .json("[]"))
        mock.register(.get, "/users", .status(500))
        #expect(try await mock.send(request(.get, url)).1.statusCode == 500)
        #expect(mock.routes == ["GET /users", "GET /users"])
    }

    @Test func methodsAndEncodedSegmentsMustMatch() async throws {
        let mock = MockTransport()
        mock.register(.get, "/projects/a%2Fb", .text("project"))
        #expect(try await mock.send(request(.get, "https://h/projects/a%2Fb")).1.statusCode == 200)
        #expect(await mockError(mock, try request(.get, "https://h/projects/a/b")) != nil)
        #expect(await mockError(mock, try request(.post, "https://h/projects/a%2Fb")) != nil)
    }

    @Test func endpointsLoadThroughTheMock() async throws {
        let mock = MockTransport(files: fixtures)
        mock.register(.get, "/missing", .status(404, body: Data(#"{"error":"gone"}"#.utf8)))
        let users = Endpoint<[User]>(request: try request(.get, "https://api.example.com/users")) { data, _ in
            Result { try JSONDecoder().decode([User].self, from: data ?? Data()) }
        }
        #expect(try await mock.load(users).count == 2)
        let missing = Endpoint<Data>(request: try request(.get, "https://api.example.com/missing")) { data, _ in
            .success(data ?? Data())
        }
        let error = try await #require(throws: HTTPTransportError.self) { try await mock.load(missing) }
        #expect(error.code == .unacceptableStatus(404))
        #expect(error.body == Data(#"{"error":"gone"}"#.utf8))
    }

    @Test func aHeaderWithALineBreakIsRefusedAsByALiveTransport() async throws {
        let mock = MockTransport()
        mock.register(.get, "/users", .json("[]"))
        var evil = try request(.get, "https://h/users")
        evil.setHeader("X-Evil", "a\r\nX-Injected: 1")
        let error = try #require(await transportError(mock, evil))
        #expect(error.code == .invalidRequest)
        #expect(error.message?.contains("X-Evil") == true)
        #expect(mock.requests.count == 1)
    }

    @Test func aRequestWithoutAURLIsInvalid() async throws {
        var request = URLRequest(url: try #require(URL(string: "https://h/x")))
        request.url = nil
        let error = try #require(await transportError(MockTransport(), request))
        #expect(error.code == .invalidRequest)
    }

    /// As on the wire (and from `URLSession`): a `HEAD`, a `204` and a `304` come without the body a route gives.
    @Test(arguments: [(HTTPMethod.head, 200), (.get, 204), (.get, 304), (.get, 200)])
    func noBodyWhereHTTPHasNone(method: HTTPMethod, status: Int) async throws {
        let mock = MockTransport()
        mock.register(method, "/item", .text("body", status: status))
        let (body, response) = try await mock.send(request(method, "https://h/item"))
        #expect(response.statusCode == status)
        #expect(body == (method == .get && status == 200 ? Data("body".utf8) : Data()))
    }
}
