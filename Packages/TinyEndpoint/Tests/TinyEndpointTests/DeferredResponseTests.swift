import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport

/// `HTTPTransport.load` on a transport that makes its `HTTPURLResponse` only when asked
/// (`sendDeferringResponse(_:)`, as `AsyncHTTPClientTransport` does): an accepted JSON body that decodes never needs
/// it, and every outcome, there and on a transport that made its response at once, is the one `validateStatus` and
/// the endpoint's `parse` give.
@Suite(.timeLimit(.minutes(1)))
struct DeferredResponseTests {
    /// A stub that returns the body, status and `Content-Type` and makes the response only when asked, counting how
    /// often it was.
    final class DeferringStub: HTTPTransport {
        let stub: StubTransport
        let made = Locked(0)

        init(_ stub: StubTransport) { self.stub = stub }

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) { try await stub.send(request) }

        func sendDeferringResponse(_ request: URLRequest) async throws
            -> (body: Data, status: Int, contentType: String?, response: @Sendable () throws -> HTTPURLResponse)
        {
            let (body, response) = try await stub.send(request)
            return (
                body, response.statusCode, response.value(forHTTPHeaderField: "Content-Type"),
                { [made] in
                    made.withLock { $0 += 1 }
                    return response
                }
            )
        }
    }

    static let url = URL(string: "https://api.example.com/items") ?? URL(fileURLWithPath: "/")

    /// What loading `endpoint` gives on `transport`: the value, or the error with the response it carries.
    static func outcome<A>(_ endpoint: Endpoint<A>, on transport: some HTTPTransport) async -> String {
        do {
            return "value \(try await transport.load(endpoint))"
        } catch {
            return describe(error)
        }
    }

    /// An error, with the `X-Trace` field of the response it carries.
    static func describe(_ error: any Error) -> String {
        var response = (error as? HTTPTransportError)?.response
        if case .noData(_, let carried) = error as? EndpointError { response = carried }
        return "error \(error), trace \(response?.value(forHTTPHeaderField: "X-Trace") ?? "none")"
    }

    /// What `validateStatus` and `parse` make of the response `transport` sends for `endpoint`.
    static func reference<A>(_ endpoint: Endpoint<A>, on transport: StubTransport) async -> String {
        do {
            let (data, response) = try await transport.send(endpoint.request)
            try validateStatus(
                response: response, body: data, request: endpoint.request,
                expectedStatusCode: endpoint.expectedStatusCode)
            return "value \(try endpoint.parse(data, response).get())"
        } catch {
            return describe(error)
        }
    }

    /// The outcomes of `endpoint` for a response on a plain stub and on a deferring one, and how often the deferring
    /// one made its response; each outcome is checked against the reference.
    static func compare<A>(
        _ endpoint: Endpoint<A>, status: Int = 200, body: String, contentType: String?
    ) async -> (plain: String, deferred: String, made: Int) {
        var headers = ["X-Trace": "t-1"]
        if let contentType { headers["Content-Type"] = contentType }
        let deferring = DeferringStub(StubTransport(status: status, body: body, headers: headers))
        let plain = await outcome(endpoint, on: StubTransport(status: status, body: body, headers: headers))
        let deferred = await outcome(endpoint, on: deferring)
        let expected = await reference(endpoint, on: StubTransport(status: status, body: body, headers: headers))
        #expect(plain == expected && deferred == expected)
        return (plain, deferred, deferring.made.withLock { $0 })
    }

    @Test(
        arguments: [
            ("[1,2]", "application/json"), ("[1,2]", nil), ("[1,2]", "Application/JSON; charset=utf-8"),
            ("[1,2]", "application/problem+json"), (" [1,2] ", "text/json"),
        ] as [(String, String?)])
    func anAcceptedJSONBodyDecodesWithoutTheResponse(body: String, contentType: String?) async {
        let result = await Self.compare(
            Endpoint<[Int]>(json: .get, url: Self.url), body: body, contentType: contentType)
        #expect(result.deferred == "value [1, 2]")
        #expect(result.plain == result.deferred)
        #expect(result.made == 0)
    }

    @Test(
        arguments: [
            (200, "[1,2]", "text/html"), (200, "", "application/json"), (200, "\n", "application/json"),
            (200, #"{"a":1}"#, "application/json"), (404, #"{"error":"gone"}"#, "application/json"),
            (500, "[1,2]", "application/json"), (200, "not json", nil),
        ] as [(Int, String, String?)])
    func everyOtherOutcomeIsThatOfTheWholeResponse(status: Int, body: String, contentType: String?) async {
        let result = await Self.compare(
            Endpoint<[Int]>(json: .get, url: Self.url), status: status, body: body, contentType: contentType)
        #expect(result.plain == result.deferred)
        #expect(result.deferred.hasPrefix("error "))
        #expect(result.made == 1)
        // A status refused and a body without a value fail with the response, whole.
        if status != 200 || body.allSatisfy(\.isWhitespace) { #expect(result.deferred.hasSuffix("trace t-1")) }
    }

    @Test func optionalsEmptyResponsesAndTextDecideWithTheResponse() async {
        let optional = await Self.compare(Endpoint<Int?>(json: .get, url: Self.url), body: "", contentType: nil)
        #expect(optional.deferred == "value nil" && optional.plain == optional.deferred)
        let empty = await Self.compare(Endpoint<EmptyResponse>(json: .get, url: Self.url), body: "", contentType: nil)
        #expect(empty.plain == empty.deferred && empty.deferred.hasPrefix("value"))
        let text = await Self.compare(
            Endpoint<String>(json: .get, url: Self.url), body: #""hi""#, contentType: "text/plain; charset=utf-8")
        #expect(text.deferred == #"value "hi""# && text.plain == text.deferred)
        let json = await Self.compare(
            Endpoint<String>(json: .get, url: Self.url), body: #""hi""#, contentType: "application/json")
        #expect(json.deferred == "value hi" && json.plain == json.deferred)
        #expect([optional.made, empty.made, text.made, json.made] == [Int](repeating: 1, count: 4))
        // An optional with a body decodes without it.
        let some = await Self.compare(Endpoint<Int?>(json: .get, url: Self.url), body: "7", contentType: nil)
        #expect(some.deferred == "value Optional(7)" && some.made == 0)
    }

    @Test func aDecodedValueIsTransformedOnceAndAReplacedParseGetsTheResponse() async {
        let transforms = Locked(0)
        let counted = Endpoint<[Int]>(json: .get, url: Self.url).compactMap { values in
            transforms.withLock { $0 += 1 }
            return values.isEmpty ? .failure(URLError(.zeroByteResource)) : .success(values.count)
        }
        let two = await Self.compare(counted, body: "[1,2]", contentType: "application/json")
        #expect(two.deferred == "value 2" && two.plain == two.deferred && two.made == 0)
        let none = await Self.compare(counted, body: "[]", contentType: "application/json")
        #expect(none.plain == none.deferred && none.deferred.hasPrefix("error") && none.made == 0)
        // Undecodable: the whole response decides, and the transform is never reached.
        let bad = await Self.compare(counted, body: "{}", contentType: "application/json")
        #expect(bad.plain == bad.deferred && bad.made == 1)
        #expect(transforms.withLock { $0 } == 6)  // three per comparison that decoded: plain, deferring, reference

        var replaced = Endpoint<[Int]>(json: .get, url: Self.url)
        replaced.parse = { _, response in .success([(response as? HTTPURLResponse)?.statusCode ?? 0]) }
        let status = await Self.compare(replaced, body: "[1,2]", contentType: "application/json")
        #expect(status.deferred == "value [200]" && status.plain == status.deferred && status.made == 1)
    }

    /// `expectedStatusCode` is asked once per load, whether the body decodes without the response, the response
    /// decides, or the status is refused (`validateStatus` asked it once before loads sent with the deferral).
    @Test(arguments: [(200, "[1]"), (200, ""), (404, "[1]")])
    func theStatusIsCheckedOncePerLoad(status: Int, body: String) async {
        let asked = Locked(0)
        let endpoint = Endpoint<[Int]?>(
            json: .get, url: Self.url,
            expectedStatusCode: { status in
                asked.withLock { $0 += 1 }
                return status == 200
            })
        let result = await Self.compare(endpoint, status: status, body: body, contentType: "application/json")
        #expect(result.plain == result.deferred)
        // `compare` loads it twice and works out the reference once.
        #expect(asked.withLock { $0 } == 3)
    }

    @Test func unlabelledBodiesAreCheckedOnlyWhenTheEndpointChecksContentTypes() async {
        let unchecked = Endpoint<[Int]>(json: .get, url: Self.url, checksContentType: false)
        let html = await Self.compare(unchecked, body: "[3]", contentType: "text/html")
        #expect(html.deferred == "value [3]" && html.plain == html.deferred && html.made == 0)
        let void = await Self.compare(Endpoint<Void>(json: .delete, url: Self.url), body: "", contentType: nil)
        #expect(void.deferred == "value ()" && void.plain == void.deferred && void.made == 0)
    }

    @Test func tinyAPIClientDecodesWithoutTheResponseToo() async throws {
        struct Items: TinyAPIEndpoint {
            var baseURL: String { "https://api.example.com" }
            var path: String { "/items" }
            var method: HTTPMethod { .get }
        }
        let deferring = DeferringStub(StubTransport(body: "[4]", headers: ["Content-Type": "application/json"]))
        let client = TinyAPIClient(transport: deferring)
        #expect(try await client.request(Items(), as: [Int].self) == [4])
        #expect(try await client.requestData(Items()) == Data("[4]".utf8))
        #expect(deferring.made.withLock { $0 } == 0)
        let failing = DeferringStub(StubTransport(status: 503, body: "down"))
        await #expect(throws: TinyAPIError.httpError(503)) {
            try await TinyAPIClient(transport: failing).requestData(Items())
        }
        #expect(failing.made.withLock { $0 } == 1)
    }

    @Test func aTinyAPIEndpointsEndpointDecodesWithoutTheResponseToo() async throws {
        struct Items: TinyAPIEndpoint {
            var baseURL: String { "https://api.example.com" }
            var path: String { "/items" }
            var method: HTTPMethod { .get }
        }
        let accepted = await Self.compare(try Items().endpoint(as: [Int].self), body: "[1,2]", contentType: nil)
        #expect(accepted.deferred == "value [1, 2]" && accepted.plain == accepted.deferred && accepted.made == 0)
        let unchecked = try Items().endpoint(as: [Int].self, checksContentType: false)
        let html = await Self.compare(unchecked, body: "[3]", contentType: "text/html")
        #expect(html.deferred == "value [3]" && html.plain == html.deferred && html.made == 0)
        // Refused by its Content-Type, or text: decided with the response, as before.
        let refused = await Self.compare(try Items().endpoint(as: [Int].self), body: "[3]", contentType: "text/html")
        #expect(refused.plain == refused.deferred && refused.deferred.hasPrefix("error") && refused.made == 1)
        let text = await Self.compare(try Items().endpoint(as: String.self), body: "hi", contentType: "text/plain")
        #expect(text.deferred == "value hi" && text.plain == text.deferred && text.made == 1)
    }
}
