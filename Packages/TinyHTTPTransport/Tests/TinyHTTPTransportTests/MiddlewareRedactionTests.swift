import Foundation
import Testing
import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct MiddlewareRedactionTests {
    @Test func secretHeadersAreRedactedWhateverTheirCase() {
        let headers = [
            "authorization": "Bearer abc", "Cookie": "s=1", "SET-COOKIE": "s=2", "Proxy-Authorization": "Basic x",
            "X-API-Key": "k", "Accept": "application/json",
        ]
        let redacted = HTTPRedaction.default.redacted(headers: headers)
        #expect(redacted["authorization"] == "***")
        #expect(redacted["Cookie"] == "***")
        #expect(redacted["SET-COOKIE"] == "***")
        #expect(redacted["Proxy-Authorization"] == "***")
        #expect(redacted["X-API-Key"] == "k")
        #expect(redacted["Accept"] == "application/json")

        let custom = HTTPRedaction.default.adding(headers: ["x-api-key"])
        #expect(custom.redacted(headers: headers)["X-API-Key"] == "***")
        #expect(custom.redactedLines(headers: ["X-API-Key": "k", "Accept": "a"]) == ["Accept: a", "X-API-Key: ***"])
    }

    @Test func secretQueryParametersAndPasswordsAreRedactedFromURLs() throws {
        let url = try #require(URL(string: "https://ada:s3cret@api.example.com/a?Access_Token=abc&page=2&sig=xyz"))
        #expect(
            HTTPRedaction.default.redacted(url: url)
                == "https://ada:***@api.example.com/a?Access_Token=***&page=2&sig=xyz")
        let custom = HTTPRedaction.default.adding(queryParameters: ["sig"])
        #expect(custom.redacted(url: url) == "https://ada:***@api.example.com/a?Access_Token=***&page=2&sig=***")
        let plain = try #require(URL(string: "https://api.example.com/a?page=2"))
        #expect(HTTPRedaction.default.redacted(url: plain) == "https://api.example.com/a?page=2")
    }

    @Test func errorDescriptionsNeverPrintSecrets() throws {
        let url = try #require(URL(string: "https://api.example.com/me?api_key=k3y"))
        var request = URLRequest(method: .get, url: url)
        request.setValue("Bearer t0ken", forHTTPHeaderField: "Authorization")
        let response = try reply(request, 401, headers: ["Set-Cookie": "session=c00kie"])
        var error = HTTPTransportError(.unacceptableStatus(401), request: request, response: response.1)
        error.attempts = 2

        #expect(
            error.description
                == "HTTP request unacceptable status 401: GET https://api.example.com/me?api_key=***, after 2 attempts")
        for secret in ["t0ken", "c00kie", "k3y"] {
            #expect(!error.description.contains(secret))
        }
        let custom = HTTPRedaction(headers: [], queryParameters: [])
        #expect(error.description(redacting: custom).contains("api_key=k3y"))
    }
}
