import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

@Suite(.timeLimit(.minutes(1))) struct EndpointTests {
    @Test func buildsTheRequestFromItsParts() throws {
        let body = Data("payload".utf8)
        let endpoint = Endpoint<()>(
            .post, url: try apiURL("/items"), accept: .json, contentType: "application/xml", body: body,
            headers: ["Authorization": "Bearer t", "X-Trace": "1"], timeOutInterval: 3)
        let request = endpoint.request
        #expect(request.httpMethod == "POST")
        #expect(request.url == (try apiURL("/items")))
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/xml")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(request.value(forHTTPHeaderField: "X-Trace") == "1")
        #expect(request.timeoutInterval == 3)
        #expect(request.httpBody == body)
    }

    @Test func headersOverrideAcceptAndContentType() throws {
        let endpoint = Endpoint<()>(
            .get, url: try apiURL(), accept: .json, contentType: .json,
            headers: ["Accept": "text/plain", "Content-Type": "text/csv"])
        #expect(endpoint.request.value(forHTTPHeaderField: "Accept") == "text/plain")
        #expect(endpoint.request.value(forHTTPHeaderField: "Content-Type") == "text/csv")
    }

    @Test func sendsNoContentTypeOrBodyUnlessGiven() throws {
        let endpoint = Endpoint<()>(.get, url: try apiURL())
        #expect(endpoint.request.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(endpoint.request.value(forHTTPHeaderField: "Accept") == nil)
        #expect(endpoint.request.httpBody == nil)
        #expect(endpoint.request.timeoutInterval == 10)
    }

    @Test func appendsQueryItemsSortedAfterTheURLsOwn() throws {
        let endpoint = Endpoint<()>(
            .get, url: try apiURL("/search?existing=1&b=kept"), query: ["z": "last", "a": "first", "m": "mid"])
        #expect(
            endpoint.request.url?.absoluteString
                == "https://api.example.com/search?existing=1&b=kept&a=first&m=mid&z=last")
    }

    @Test func percentEncodesQueryNamesAndValues() throws {
        let endpoint = Endpoint<()>(.get, url: try apiURL("/s"), query: ["q": "a b+c&d=e/ü", "k&y": "é"])
        let url = try #require(endpoint.request.url)
        #expect(url.absoluteString == "https://api.example.com/s?k%26y=%C3%A9&q=a%20b%2Bc%26d%3De%2F%C3%BC")
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
        #expect(items == [URLQueryItem(name: "k&y", value: "é"), URLQueryItem(name: "q", value: "a b+c&d=e/ü")])
    }

    @Test func keepsTheFragmentAfterTheQuery() throws {
        let endpoint = Endpoint<()>(.get, url: try apiURL("/page#section"), query: ["p": "2"])
        #expect(endpoint.request.url?.absoluteString == "https://api.example.com/page?p=2#section")
    }

    @Test func acceptsBothMethodSpellings() throws {
        #expect(Endpoint<()>(.GET, url: try apiURL()).request.httpMethod == "GET")
        #expect(Endpoint<()>(.delete, url: try apiURL()).request.httpMethod == "DELETE")
        #expect(Endpoint<()>(HTTPMethod(rawValue: "PROPFIND"), url: try apiURL()).request.httpMethod == "PROPFIND")
    }

    @Test func parsesWithTheBodyAndResponse() throws {
        let endpoint = Endpoint<String>(.get, url: try apiURL()) { data, response in
            .success("\(data?.text ?? "nil") \((response as? HTTPURLResponse)?.statusCode ?? 0)")
        }
        #expect(try endpoint.parse(Data("hi".utf8), okResponse(201)).get() == "hi 201")
        #expect(try endpoint.parse(nil, nil).get() == "nil 0")
    }

    @Test func parsesWithTheBodyOnly() throws {
        struct Empty: Error {}
        let endpoint = Endpoint<Int>(.get, url: try apiURL()) { data in
            Result {
                guard let data, let number = Int(data.text) else { throw Empty() }
                return number
            }
        }
        #expect(throws: Empty.self) { try endpoint.parse(nil, nil).get() }
        #expect(throws: Empty.self) { try endpoint.parse(Data("x".utf8), nil).get() }
        #expect(try endpoint.parse(Data("42".utf8), nil).get() == 42)
    }

    @Test func voidEndpointsIgnoreTheBody() throws {
        let endpoint = Endpoint<()>(.delete, url: try apiURL())
        #expect(throws: Never.self) { try endpoint.parse(Data("{ not json".utf8), nil).get() }
        #expect(throws: Never.self) { try endpoint.parse(nil, nil).get() }
    }

    @Test func expectedStatusCodeDefaultsTo2xx() throws {
        let endpoint = Endpoint<()>(.get, url: try apiURL())
        #expect(endpoint.expectedStatusCode(200) && endpoint.expectedStatusCode(299))
        #expect(!endpoint.expectedStatusCode(199) && !endpoint.expectedStatusCode(300))
        let custom = Endpoint<()>(.get, url: try apiURL(), expectedStatusCode: { $0 == 304 })
        #expect(custom.expectedStatusCode(304) && !custom.expectedStatusCode(200))
    }

    @Test func mapTransformsTheResultAndKeepsTheRest() throws {
        let numbers = Endpoint<Int>(request: URLRequest(url: try apiURL("/n")), expectedStatusCode: { $0 == 201 }) {
            data, _ in
            Result { try Int(#require(data).text).map { $0 } ?? 0 }
        }
        let doubled = numbers.map { $0 * 2 }
        #expect(try doubled.parse(Data("21".utf8), nil).get() == 42)
        #expect(doubled.request == numbers.request)
        #expect(doubled.expectedStatusCode(201) && !doubled.expectedStatusCode(200))
    }

    @Test func mapAndCompactMapKeepTheRequestError() throws {
        let broken = Endpoint<User>(json: .post, url: try apiURL(), body: ["value": Double.nan])
        let mapped = broken.map { $0.name }
        let compacted = broken.compactMap { user in Result<String, any Error>.success(user.name) }
        for error in [broken.requestError, mapped.requestError, compacted.requestError] {
            guard case .encodingFailed(let type, let codingPath, _) = error else {
                Issue.record("expected encodingFailed, got \(String(describing: error))")
                continue
            }
            #expect(type == "Dictionary<String, Double>")
            #expect(codingPath == "value")
        }
        #expect(Endpoint<User>(json: .get, url: try apiURL()).map { $0.name }.requestError == nil)
    }

    @Test func compactMapCanFailAndPassesFailuresOn() throws {
        struct Odd: Error {}
        struct Broken: Error {}
        let numbers = Endpoint<Int>(request: URLRequest(url: try apiURL())) { data, _ in
            guard let data else { return .failure(Broken()) }
            return .success(Int(data.text) ?? 0)
        }
        let halves = numbers.compactMap { number -> Result<Int, any Error> in
            number.isMultiple(of: 2) ? .success(number / 2) : .failure(Odd())
        }
        #expect(try halves.parse(Data("8".utf8), nil).get() == 4)
        #expect(throws: Odd.self) { try halves.parse(Data("7".utf8), nil).get() }
        #expect(throws: Broken.self) { try halves.parse(nil, nil).get() }
    }

    /// The body is never printed any more (a login's password would be): only its size.
    @Test func descriptionShowsMethodURLAndTheBodysSize() throws {
        let post = Endpoint<()>(.post, url: try apiURL("/users"), body: Data(#"{"name":"Ada"}"#.utf8))
        #expect(post.description == "POST https://api.example.com/users (14 bytes)")
        #expect(Endpoint<()>(.get, url: try apiURL("/users")).description == "GET https://api.example.com/users")
        let binary = Endpoint<()>(.put, url: try apiURL("/blob"), body: Data([0xFF, 0xFE, 0x00]))
        #expect(binary.description == "PUT https://api.example.com/blob (3 bytes)")
        let empty = Endpoint<()>(.post, url: try apiURL("/ping"), body: Data())
        #expect(empty.description == "POST https://api.example.com/ping")
    }

    @Test func descriptionOfALoginNeverShowsThePassword() throws {
        struct Login: Encodable {
            var user: String
            var password: String
        }
        let password = "s3cr3t-Pa55"
        let login = Endpoint<User>(
            json: .post, url: try apiURL("/login"), body: Login(user: "ada", password: password),
            headers: ["Authorization": "Basic YWRhOnMzY3IzdA=="])
        let bytes = try #require(login.request.httpBody).count
        #expect(login.description == "POST https://api.example.com/login (\(bytes) bytes)")
        #expect(!login.description.contains(password))
        #expect(!login.description.contains("ada"))
        #expect(!String(describing: login).contains(password))
        #expect(!"\(login)".contains("YWRh"))
    }

    @Test func descriptionRedactsCredentialsInTheURL() throws {
        let url = try #require(URL(string: "https://ada:pa55@api.example.com/users?access_token=t0k&page=2"))
        let endpoint = Endpoint<()>(.get, url: url, headers: ["Authorization": "Bearer b34r"])
        #expect(endpoint.description == "GET https://***:***@api.example.com/users?access_token=***&page=2")
    }
}
