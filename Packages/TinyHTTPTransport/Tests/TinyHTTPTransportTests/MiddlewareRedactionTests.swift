import Foundation
import Testing

@_spi(TinyKit) @testable import TinyHTTPTransport

@Suite(.timeLimit(.minutes(1))) struct MiddlewareRedactionTests {
    /// Secret by its name, in any case: the cookies and every name that reads as a credential, in logs, errors and
    /// stored responses as on a redirect to another origin (an API's own token header, GitLab's `Private-Token`, was
    /// logged in clear at trace level and written by `FileResponseStore`); not `Idempotency-Key`, which names an
    /// operation, not who sends it, nor a challenge (`WWW-Authenticate: Bearer error="invalid_token"` says why a `401`
    /// came: the log of a failed sign-in needs it), nor CORS's `Access-Control-Allow-Credentials` (a `true`). A
    /// redaction's own names are secret besides.
    @Test(arguments: [
        ("authorization", true), ("Cookie", true), ("SET-COOKIE", true), ("Proxy-Authorization", true),
        ("Private-Token", true), ("X-Custom-Secret", true), ("X-Session-Id", true), ("X-Access-Key", true),
        ("X-JFrog-Art-Api", true), ("X-Tenant", false), ("Accept", false), ("Idempotency-Key", false),
        ("X-Request-Id", false), ("WWW-Authenticate", false), ("Proxy-Authenticate", false),
        ("X-GitHub-Api-Version", false), ("X-Api", true), ("Api", false), ("Authentication-Info", true),
        ("X-Credential", true), ("X-JWT-Assertion", true), ("Access-Control-Allow-Credentials", false),
    ])
    func aHeaderIsSecretByItsNameWhateverItsCase(name: String, secret: Bool) {
        let headers = [name: "value"]
        #expect(HTTPRedaction.default.redacted(headers: headers)[name] == (secret ? "***" : "value"))
        let custom = HTTPRedaction(headers: ["x-tenant"]).redacted(headers: headers)
        #expect(custom[name] == (secret || name == "X-Tenant" ? "***" : "value"))
    }

    @Test func secretQueryParametersAndUserInformationAreRedactedFromURLs() throws {
        let url = try #require(URL(string: "https://ada:s3cret@api.example.com/a?Access_Token=abc&page=2&sig=xyz"))
        #expect(
            HTTPRedaction.default.redacted(url: url)
                == "https://***:***@api.example.com/a?Access_Token=***&page=2&sig=xyz")
        let custom = HTTPRedaction(queryParameters: ["sig"])
        #expect(custom.redacted(url: url) == "https://***:***@api.example.com/a?Access_Token=***&page=2&sig=***")
        let plain = try #require(URL(string: "https://api.example.com/a?page=2"))
        #expect(HTTPRedaction.default.redacted(url: plain) == "https://api.example.com/a?page=2")
    }

    /// A user name without a password is a token (GitHub's `https://TOKEN@…`, Stripe's `https://KEY:@…`), and a
    /// fragment, never sent, can hold one (OAuth's implicit flow).
    @Test(arguments: [
        ("https://ghp_abc@api.example.com/a", "https://***@api.example.com/a"),
        ("https://sk_live_abc:@api.example.com/a", "https://***:@api.example.com/a"),
        ("https://api.example.com/cb#access_token=abc&state=1", "https://api.example.com/cb"),
        ("https://ada:pw@api.example.com/a#top", "https://***:***@api.example.com/a"),
    ])
    func userNameTokensAndFragmentsAreNotPrinted(url: String, redacted: String) throws {
        #expect(HTTPRedaction.default.redacted(url: try #require(URL(string: url))) == redacted)
    }

    /// `key`, `token`, `apikey`, `signature` and an S3 presigned URL's `X-Amz-…` credentials were printed in clear; so
    /// were the camel-case and hyphenated spellings of the secret names (`accessToken`, `Client-Secret`), the names
    /// that hold `password` (`new_password`) or end in `secret` or `signature` (`app_secret`, `oauth_signature`), a
    /// dotted nested name (`credentials.token`) and OAuth's and others' token names (`auth_token`, `code_verifier`).
    @Test(arguments: [
        "access_token", "refresh_token", "id_token", "client_secret", "api_key", "password", "key", "apikey", "token",
        "signature", "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token", "accessToken", "refreshToken",
        "clientSecret", "Client-Secret", "API-KEY", "new_password", "currentPassword", "user%5BnewPassword%5D",
        "auth_token", "oauth_signature", "app_secret", "credentials.token", "id_token_hint", "code_verifier", "pwd",
        "access_key",
    ])
    func everyDefaultSecretQueryParameterIsRedacted(name: String) throws {
        let url = try #require(URL(string: "https://api.example.com/a?\(name)=s3cret&page=2"))
        #expect(HTTPRedaction.default.redacted(url: url) == "https://api.example.com/a?\(name)=***&page=2")
    }

    /// A redaction's own query names compare as the default ones do: in any case, ignoring `_` and `-`.
    @Test func aRedactionsOwnNamesIgnoreCaseUnderscoresAndHyphens() throws {
        let url = try #require(URL(string: "https://api.example.com/a?x-sig=1&XSig=2&x_sig_id=3"))
        let redacted = HTTPRedaction(queryParameters: ["X_Sig"]).redacted(url: url)
        #expect(redacted == "https://api.example.com/a?x-sig=***&XSig=***&x_sig_id=3")
    }

    /// Names that only hold a secret name's letters, or part of one, stay as they are.
    @Test(arguments: ["page_token", "tokenType", "keyword", "monkey", "secretary", "signed", "id"])
    func aNameThatOnlyResemblesASecretOneIsKept(name: String) throws {
        let url = try #require(URL(string: "https://api.example.com/a?\(name)=v"))
        #expect(HTTPRedaction.default.redacted(url: url) == url.absoluteString)
    }

    /// A name written with percent escapes is the same parameter to the server: its value is a secret too.
    @Test func aPercentEncodedSecretNameIsRedacted() throws {
        let url = try #require(URL(string: "https://api.example.com/a?access%5Ftoken=s3cret"))
        #expect(HTTPRedaction.default.redacted(url: url) == "https://api.example.com/a?access%5Ftoken=***")
    }

    /// A secret name nested in brackets (Rails' and PHP's `user[password]`) or after a form's `+` (a space) was printed
    /// in clear; the other parameters stay as they are.
    @Test(arguments: ["user[password]", "a%5Btoken%5D", "auth[api_key][0]", "+token", "x[]=1&password[]"])
    func aNestedSecretNameIsRedacted(name: String) throws {
        let url = try #require(URL(string: "https://api.example.com/a?\(name)=s3cret&page=2"))
        let redacted = HTTPRedaction.default.redacted(url: url)
        #expect(!redacted.contains("s3cret"))
        #expect(redacted.hasSuffix("=***&page=2"))
    }

    /// API-key headers were printed in clear unless named.
    @Test(arguments: ["X-API-Key", "api-key", "X-Auth-Token"])
    func apiKeyHeadersAreSecretByDefault(name: String) {
        #expect(
            HTTPRedaction.default.redacted(headers: [name: "k3y", "Accept": "*/*"]) == [name: "***", "Accept": "*/*"])
    }

    /// Both transports' redirect rule: credentials and `Origin` stay behind only for another origin, which a
    /// host's case or a spelled-out default port does not make (they made one, and the token was dropped).
    @Test func aRedirectDropsCredentialsOnlyForAnotherOrigin() throws {
        let from = try #require(URL(string: "https://api.example.com/a"))
        func drops(_ name: String, to: String) throws -> Bool {
            HTTPRedaction.redirect(from: from, to: try #require(URL(string: to)), drops: name)
        }
        for name in ["Authorization", "cookie", "X-API-Key", "X-JFrog-Art-Api", "Origin"] {
            #expect(try drops(name, to: "https://cdn.example.com/b"))
            #expect(try drops(name, to: "http://api.example.com/b"))
            #expect(try drops(name, to: "https://api.example.com:8443/b"))
            #expect(try !drops(name, to: "https://API.example.com:443/b"))
            #expect(try !drops(name, to: "HTTPS://api.example.com/b"))
        }
        #expect(try !drops("X-Trace", to: "https://cdn.example.com/b"))
    }

    @Test func customNamesGivenInAnyCaseAreSecret() throws {
        let custom = HTTPRedaction(headers: ["X-API-Key"], queryParameters: ["Sig"])
        #expect(custom.redacted(headers: ["x-api-key": "k"]) == ["x-api-key": "***"])
        let url = try #require(URL(string: "https://api.example.com/a?sig=xyz"))
        #expect(custom.redacted(url: url) == "https://api.example.com/a?sig=***")
    }

    /// A secret name without a value carries no secret: it stays as it is, without a `=***` added.
    @Test func aSecretNameWithoutAValueIsLeftAlone() throws {
        let url = try #require(URL(string: "https://api.example.com/a?password&api_key=k"))
        #expect(HTTPRedaction.default.redacted(url: url) == "https://api.example.com/a?password&api_key=***")
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
        let custom = HTTPRedaction(queryParameters: ["other"])  // naming another secret keeps the usual ones
        #expect(error.description(redacting: custom) == error.description)
    }

    @Test func summaryIsTheMethodAndTheRedactedURLWithoutHeadersOrBody() throws {
        let url = try #require(URL(string: "https://ada:s3cret@api.example.com/login?password=hunter2&next=%2Fhome"))
        var request = URLRequest(method: .post, url: url)
        request.setValue("Bearer t0ken", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"password":"b0dy"}"#.utf8)

        let summary = HTTPRedaction.default.summary(of: request)

        #expect(summary == "POST https://***:***@api.example.com/login?password=***&next=%2Fhome")
        for secret in ["s3cret", "hunter2", "t0ken", "b0dy"] {
            #expect(!summary.contains(secret))
        }
        let custom = HTTPRedaction(queryParameters: ["next"])
        #expect(custom.summary(of: request) == "POST https://***:***@api.example.com/login?password=***&next=***")
    }

    @Test func summaryOfARequestWithoutMethodOrURL() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/a")))
        request.httpMethod = nil
        #expect(HTTPRedaction.default.summary(of: request) == "GET https://api.example.com/a")
        request.httpMethod = "DELETE"
        request.url = nil
        #expect(HTTPRedaction.default.summary(of: request) == "DELETE (no URL)")
    }

    @Test func previewShowsShortBodiesWhole() {
        #expect(HTTPRedaction.preview(of: Data()) == "(empty)")
        #expect(HTTPRedaction.preview(of: Data(#"{"error":"nope"}"#.utf8)) == #"{"error":"nope"}"#)
        let exactly200 = Data(String(repeating: "a", count: 200).utf8)
        #expect(HTTPRedaction.preview(of: exactly200) == String(repeating: "a", count: 200))
    }

    @Test func previewCutsLongBodiesAndSaysTheirSize() {
        let body = Data((String(repeating: "a", count: 200) + "bc").utf8)
        #expect(HTTPRedaction.preview(of: body) == String(repeating: "a", count: 200) + "… (202 bytes)")
        #expect(HTTPRedaction.preview(of: Data("hello world".utf8), limit: 5) == "hello… (11 bytes)")
        #expect(HTTPRedaction.preview(of: Data("hello".utf8), limit: 5) == "hello")
        #expect(HTTPRedaction.preview(of: Data("hello".utf8), limit: 0) == "… (5 bytes)")
        #expect(HTTPRedaction.preview(of: Data(), limit: 0) == "(empty)")
        // A cut inside a multi-byte character is made before it, not as a replacement character.
        #expect(HTTPRedaction.preview(of: Data("ab€c".utf8), limit: 3) == "ab… (6 bytes)")
        #expect(HTTPRedaction.preview(of: Data("ab€c".utf8).dropFirst(), limit: 3) == "b… (5 bytes)")
        #expect(HTTPRedaction.preview(of: Data("a🙂".utf8), limit: 4) == "a… (5 bytes)")
    }

    @Test func previewOfBytesThatAreNotUTF8ReplacesThem() {
        #expect(HTTPRedaction.preview(of: Data([0x6F, 0x6B, 0xFF])) == "ok\u{FFFD}")
    }

    /// `redacted(headers:)` redacts the secrets of a URL a value carries, as a request's URL is redacted (the rule the
    /// logging middleware had alone; `FileResponseStore` leaves such fields out of its files through it), and keeps
    /// every other value as it came.
    @Test func headerValuesCarryingURLsHaveTheirSecretsRedacted() {
        let redacted = HTTPRedaction.default.redacted(headers: [
            "Location": "https://api.example.com/cb?token=s3cret&page=2",
            "Content-Location": "/callback#access_token=s3cret",
            "Link": #"<https://example.com/t?page=3>; rel="next", <https://cdn.example.com/t?X-Amz-Signature=s3cret>"#,
            "Refresh": "0; url=/next?api_key=s3cret",
            "ETag": #""v1#x=1""#, "X-Doc": "/docs#top", "X-Query": "a?b=c&d", "Date": "Wed, 21 Oct 2015 07:28:00 GMT",
        ])
        #expect(redacted["Location"] == "https://api.example.com/cb?token=***&page=2")
        #expect(redacted["Content-Location"] == "/callback")
        #expect(
            redacted["Link"]
                == #"<https://example.com/t?page=3>; rel="next", <https://cdn.example.com/t?X-Amz-Signature=***>"#)
        #expect(redacted["Refresh"] == "0; url=/next?api_key=***")
        #expect(redacted["ETag"] == #""v1#x=1""# && redacted["X-Doc"] == "/docs#top")
        #expect(redacted["X-Query"] == "a?b=c&d" && redacted["Date"] == "Wed, 21 Oct 2015 07:28:00 GMT")
    }

    @Test func errorDescriptionsUseTheSummaryAndThePreview() throws {
        let url = try #require(URL(string: "https://api.example.com/a?api_key=k3y"))
        let request = URLRequest(method: .put, url: url)
        let response = try reply(request, 500).1
        let body = Data(String(repeating: "x", count: 250).utf8)
        let error = HTTPTransportError(.unacceptableStatus(500), request: request, response: response, body: body)
        #expect(
            error.description
                == "HTTP request unacceptable status 500: \(HTTPRedaction.default.summary(of: request)), body: "
                + HTTPRedaction.preview(of: body))
        #expect(error.description.hasSuffix("… (250 bytes)"))
        let empty = HTTPTransportError(.unacceptableStatus(500), request: request, response: response, body: Data())
        #expect(!empty.description.contains("body"))
    }

    /// The token-as-user forms APIs document carry a filler password: GitHub's `https://TOKEN:x-oauth-basic@…`,
    /// Freshdesk's `APIKEY:X`. The user name is redacted with the password (it was printed when one followed it).
    @Test(arguments: ["https://ghp_s3cret:x-oauth-basic@api.github.com/user", "https://s3cret:X@x.freshdesk.com/api"])
    func aTokenUserNameWithAFillerPasswordIsNotPrinted(url: String) throws {
        let parsed = try #require(URL(string: url))
        let redacted = HTTPRedaction.default.redacted(url: parsed)
        #expect(!redacted.contains("s3cret"), "printed as \(redacted)")
    }
}
