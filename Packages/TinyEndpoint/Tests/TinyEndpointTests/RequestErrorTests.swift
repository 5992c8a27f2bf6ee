import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

@testable import TinyEndpoint

/// A body the default `JSONEncoder` cannot encode: JSON has no NaN.
struct Reading: Encodable, Sendable {
    var sensor: String
    var value: Double
}

/// TinyNetworking's authenticated-endpoint sample (its README's `Mailchimp`), with a body that may hold a NaN.
struct Mailchimp {
    let base: URL
    var apiKey: String
    var authHeader: [String: String] {
        ["Authorization": "Basic " + Data("anystring:\(apiKey)".utf8).base64EncodedString()]
    }

    func setScore(_ score: Double, forCampaign campaignId: String) -> Endpoint<()> {
        struct Edit: Codable {
            var score: Double
        }
        let body = Edit(score: score)
        let url = base.appendingPathComponent("campaigns/\(campaignId)/score")
        return Endpoint<()>(json: .put, url: url, body: body, headers: authHeader)
    }
}

/// `Endpoint(json:url:body:…)` does not throw: a body that cannot be encoded is kept as `requestError` and thrown
/// when the endpoint is loaded, before anything is sent, whichever way it is loaded.
@Suite(.timeLimit(.minutes(1))) struct RequestErrorTests {
    let url: URL
    /// An endpoint whose body cannot be encoded.
    let broken: Endpoint<User>

    init() throws {
        url = try apiURL("/readings")
        // No `try`: the initialiser does not throw (with -warnings-as-errors a needless `try` would not compile).
        broken = Endpoint(json: .post, url: url, body: Reading(sensor: "t1", value: .nan))
    }

    /// `error` is the encoding failure of a `Reading` at `value`.
    func expectReadingFailure(_ error: (any Error)?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .encodingFailed(let type, let codingPath, let underlying) = error as? EndpointError else {
            Issue.record("expected encodingFailed, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(type == "Reading", sourceLocation: sourceLocation)
        #expect(codingPath == "value", sourceLocation: sourceLocation)
        #expect(underlying is EncodingError, sourceLocation: sourceLocation)
    }

    @Test func anUnencodableBodyIsARequestErrorNamingTypeAndCodingPath() {
        expectReadingFailure(broken.requestError)
        #expect(broken.request.httpMethod == "POST")
        #expect(broken.request.httpBody == nil)
        let fine = Endpoint<User>(json: .post, url: url, body: Reading(sensor: "t1", value: 1.5))
        #expect(fine.requestError == nil)
        #expect(fine.request.httpBody?.text.contains(#""value":1.5"#) == true)
    }

    @Test func loadingThrowsTheRequestErrorAndSendsNothing() async throws {
        let transport = StubTransport(body: #"{"name":"Ada"}"#)
        let error = await #expect(throws: EndpointError.self) { try await transport.load(broken) }
        expectReadingFailure(error)
        // Through middleware too: the error comes before the first middleware sees a request.
        let retrying = transport.with(.retry(RetryPolicy(maxAttempts: 3), clock: RecordingClock()))
        expectReadingFailure(await #expect(throws: EndpointError.self) { try await retrying.load(broken) })
        #expect(transport.requests.isEmpty)
    }

    @Test func loadingWithACallbackFailsWithTheRequestErrorAndSendsNothing() async throws {
        let transport = StubTransport(body: #"{"name":"Ada"}"#)
        let result = await withCheckedContinuation { continuation in
            transport.load(broken) { continuation.resume(returning: $0) }
        }
        expectReadingFailure(result.error)
        #expect(transport.requests.isEmpty)
    }

    /// TinyNetworking's sample compiles as written (`Endpoint<()>(json: .put, url: url, body: body, headers:
    /// authHeader)` returned from a function), and its encoding failure waits for loading.
    @Test func tinyNetworkingsSampleCompilesAndDefersTheError() async throws {
        let mailchimp = Mailchimp(base: try requireURL("https://us7.api.mailchimp.com/3.0/"), apiKey: "k3y")
        let good = mailchimp.setScore(4.5, forCampaign: "c1")
        #expect(good.requestError == nil)
        #expect(good.request.httpMethod == "PUT")
        #expect(good.request.url?.absoluteString == "https://us7.api.mailchimp.com/3.0/campaigns/c1/score")
        #expect(good.request.httpBody?.text == #"{"score":4.5}"#)
        #expect(good.request.value(forHTTPHeaderField: "Authorization") == mailchimp.authHeader["Authorization"])
        #expect(good.request.value(forHTTPHeaderField: "Content-Type") == "application/json")

        let bad = mailchimp.setScore(.infinity, forCampaign: "c1")
        guard case .encodingFailed(let type, let codingPath, _) = bad.requestError else {
            Issue.record("expected encodingFailed, got \(String(describing: bad.requestError))")
            return
        }
        #expect(type == "Edit")
        #expect(codingPath == "score")
        let transport = StubTransport(status: 204)
        await #expect(throws: EndpointError.self) { try await transport.load(bad) }
        #expect(transport.requests.isEmpty)
        try await transport.load(good)
        #expect(transport.requests.count == 1)
    }
}

/// The `URLSession` entries with an endpoint that has a `requestError`, on a session whose only "network" is
/// ``RecordingURLProtocol``: they fail with that error and nothing reaches the protocol.
@Suite(.timeLimit(.minutes(1))) struct URLSessionRequestErrorTests {
    let session: URLSession
    /// This test's own URLs (the protocol's record is shared by every test).
    let url: URL

    init() throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [RecordingURLProtocol.self]
        session = URLSession(configuration: configuration)
        url = try requireURL("https://stub.invalid/\(UUID().uuidString)/readings")
    }

    var broken: Endpoint<User> { Endpoint(json: .post, url: url, body: Reading(sensor: "t1", value: .nan)) }
    var fine: Endpoint<User> { Endpoint(json: .post, url: url, body: Reading(sensor: "t1", value: 1)) }

    /// The requests for this test's URL that reached the protocol.
    var started: [String] {
        RecordingURLProtocol.started.withLock { $0 }.filter { $0 == url.absoluteString }
    }

    @Test(.timeLimit(.minutes(1)))
    func dataTaskFailsWithTheRequestErrorAndSendsNothing() async throws {
        let result = await withCheckedContinuation { continuation in
            let task = session.dataTask(endpoint: broken) { continuation.resume(returning: $0) }
            task.resume()  // as a TinyHTTP user does; the task was cancelled before it could send
        }
        guard case .encodingFailed("Reading", "value", _) = result.error as? EndpointError else {
            Issue.record("expected encodingFailed, got \(result)")
            return
        }
        #expect(started.isEmpty)
        // The stub does answer what is sent: an endpoint that can be sent reaches it.
        let sent = await withCheckedContinuation { continuation in
            session.dataTask(endpoint: fine) { continuation.resume(returning: $0) }.resume()
        }
        #expect(try sent.get() == User(name: "Ada"))
        #expect(started.count == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func urlSessionLoadFailsWithTheRequestErrorAndSendsNothing() async throws {
        let callback = await withCheckedContinuation { continuation in
            session.load(broken) { continuation.resume(returning: $0) }
        }
        #expect(callback.error is EndpointError)
        await #expect(throws: EndpointError.self) { try await session.load(broken) }
        #expect(started.isEmpty)
        #expect(try await session.load(fine) == User(name: "Ada"))
        #expect(started.count == 1)
    }
}

/// A `URLProtocol` answering every request with `200` and `{"name":"Ada"}`, recording the URL of each request it
/// starts loading: the proof of what a session sent, without a network.
final class RecordingURLProtocol: URLProtocol {
    /// The URL of every request started, in order.
    static let started = Locked<[String]>([])

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        Self.started.withLock { $0.append(request.url?.absoluteString ?? "") }
        guard let url = request.url,
            let response = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])
        else {
            client?.urlProtocol(self, didFailWithError: URLError(.badURL))
            return
        }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data(#"{"name":"Ada"}"#.utf8))
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}
