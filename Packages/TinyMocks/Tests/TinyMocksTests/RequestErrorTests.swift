import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport
import TinyMocks

/// An endpoint whose JSON body cannot be encoded (`Endpoint.requestError`) fails on the mock as on a live transport:
/// loading throws the encoding error and nothing is sent, so the mock records no request.
@Suite(.timeLimit(.minutes(1))) struct RequestErrorTests {
    /// A body the default `JSONEncoder` cannot encode: JSON has no NaN.
    struct Reading: Encodable {
        var sensor: String
        var value: Double
    }

    /// TinyNetworking's authenticated-endpoint sample (its README's `Mailchimp`), with a body that may hold a NaN.
    struct Mailchimp {
        let base: URL
        var authHeader: [String: String] { ["Authorization": "Basic YW55c3RyaW5nOmszeQ=="] }

        func setScore(_ score: Double, forCampaign campaignId: String) -> Endpoint<()> {
            struct Edit: Codable {
                var score: Double
            }
            let body = Edit(score: score)
            let url = base.appendingPathComponent("campaigns/\(campaignId)/score")
            return Endpoint<()>(json: .put, url: url, body: body, headers: authHeader)
        }
    }

    @Test func anUnencodableBodyIsThrownAtLoadAndTheMockRecordsNoRequest() async throws {
        let mock = MockTransport()
        mock.register(.post, "/readings", .json(#"{"id":1,"name":"t1","email":"-"}"#, status: 201))
        let url = try #require(URL(string: "https://api.example.com/readings"))
        // No `try`: the initialiser does not throw (with -warnings-as-errors a needless `try` would not compile).
        let endpoint = Endpoint<User>(json: .post, url: url, body: Reading(sensor: "t1", value: .nan))
        guard case .encodingFailed(let type, let codingPath, let underlying) = endpoint.requestError else {
            Issue.record("expected encodingFailed, got \(String(describing: endpoint.requestError))")
            return
        }
        #expect(type == "Reading")
        #expect(codingPath == "value")
        #expect(underlying is EncodingError)

        let error = await #expect(throws: EndpointError.self) { try await mock.load(endpoint) }
        #expect(error?.description == endpoint.requestError?.description)
        let callback = await withCheckedContinuation { continuation in
            mock.load(endpoint) { continuation.resume(returning: $0) }
        }
        #expect(throws: EndpointError.self) { try callback.get() }
        #expect(mock.requests.isEmpty)

        // The same call with a body that encodes reaches the mock.
        let fine = Endpoint<User>(json: .post, url: url, body: Reading(sensor: "t1", value: 1))
        #expect(try await mock.load(fine).id == 1)
        #expect(mock.requests.map(\.method) == [.post])
    }

    @Test func tinyNetworkingsSampleDefersTheErrorAndTheMockRecordsNoRequest() async throws {
        let mock = MockTransport()
        mock.register(.put, "/3.0/campaigns/c1/score", .status(204))
        let mailchimp = Mailchimp(base: try #require(URL(string: "https://us7.api.mailchimp.com/3.0/")))

        let bad = mailchimp.setScore(.nan, forCampaign: "c1")
        guard case .encodingFailed("Edit", "score", _) = bad.requestError else {
            Issue.record("expected encodingFailed, got \(String(describing: bad.requestError))")
            return
        }
        await #expect(throws: EndpointError.self) { try await mock.load(bad) }
        #expect(mock.requests.isEmpty)

        try await mock.load(mailchimp.setScore(4.5, forCampaign: "c1"))
        let sent = try #require(mock.requests.first)
        #expect(mock.requests.count == 1)
        #expect(sent.method == .put)
        #expect(sent.httpBody == Data(#"{"score":4.5}"#.utf8))
        #expect(sent.value(forHTTPHeaderField: "Authorization") == "Basic YW55c3RyaW5nOmszeQ==")
    }

    @Test func aMockTinyAPIClientSendsNothingForAnUnencodableBody() async throws {
        let client = MockTinyAPIClient(files: fixtures)
        let error = await #expect(throws: TinyAPIError.self) {
            try await client.post(
                to: "https://api.example.com", path: "/users", body: Reading(sensor: "t1", value: .nan),
                as: User.self)
        }
        guard case .encodingError(let message) = error?.kind else {
            Issue.record("expected encodingError, got \(String(describing: error))")
            return
        }
        #expect(message.contains("Reading at value"))
        #expect(client.transport.requests.isEmpty)
    }
}
