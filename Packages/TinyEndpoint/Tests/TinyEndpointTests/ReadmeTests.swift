// Compiles every ```swift block of Packages/TinyEndpoint/README.md (each of its lines appears here verbatim) and runs
// them against stub transports. Keep the two in step: the root's ReadmeSnippetTests checks it.
import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport

// MARK: Quick start

struct Todo: Codable, Sendable {
    var id: Int
    var title: String
}

func todos(from baseURL: URL, on transport: any HTTPTransport) async throws -> [Todo] {
    try await transport.load(Endpoint<[Todo]>(json: .get, url: baseURL.appendingRelative("todos")))
}

// MARK: TinyHTTP style

final class TodosAPI: Sendable {
    private let url: URL
    private let jsonDecoder = JSONDecoder()

    init(url: URL) { self.url = url }

    func all() -> Endpoint<[Todo]> {
        var request = URLRequest(method: .get, url: url)
        request.httpAccept(.json)
        return Endpoint(request: request, decodeResponse: jsonDecoder.decodeResponse)
    }

    func delete(id: Int) -> Endpoint<Void> {
        let request = URLRequest(method: .delete, url: url.appendingRelative(String(id)))
        return Endpoint(request: request, decodeResponse: EndpointExpectation.ignoreResponse)
    }
}

// MARK: tinyAPI style

enum UserEndpoint: TinyAPIEndpoint {
    case list
    case detail(id: Int)

    var baseURL: String { "https://api.example.com/v1" }
    var path: String {
        switch self {
        case .list: "/users"
        case .detail(let id): "/users/\(id)"
        }
    }
    var method: HTTPMethod { .GET }
}

@Suite(.timeLimit(.minutes(1))) struct ReadmeTests {
    let baseURL: URL

    init() throws { baseURL = try apiURL() }

    /// The quick start's live line: compiled, never run (it would reach the network).
    func quickStartLive() async throws -> [Todo] {
        // Live: URLSessionTransport.shared; in tests and previews: a mock transport.
        let live = try await todos(from: baseURL, on: URLSessionTransport.shared)
        return live
    }

    @Test func quickStart() async throws {
        let transport = StubTransport(body: #"[{"id":1,"title":"Write the README"}]"#)
        let result = try await todos(from: baseURL, on: transport)
        #expect(result.map(\.title) == ["Write the README"])
        #expect(transport.requests.first?.url?.absoluteString == "https://api.example.com/todos")
    }

    @Test func tinyNetworkingStyle() async throws {
        let profileURL = try apiURL("/me")
        let profile = ["name": "Ada"]
        let token = "Basic YWRhOnNlY3JldA=="
        func userInfo(login: String) -> Endpoint<User> {
            Endpoint(json: .get, url: baseURL.appendingRelative("users/\(login)"))
        }
        let names = userInfo(login: "objcio").map { $0.name }
        let update = Endpoint<()>(json: .put, url: profileURL, body: profile, headers: ["Authorization": token])
        let text = Endpoint<String>(.get, url: profileURL, accept: "text/plain") { data in
            Result { String(decoding: data ?? Data(), as: UTF8.self) }
        }
        #expect(names.request.url?.absoluteString == "https://api.example.com/users/objcio")
        #expect(try await StubTransport(body: #"{"name":"objc.io"}"#).load(names) == "objc.io")
        #expect(update.requestError == nil)
        #expect(update.description == "PUT https://api.example.com/me (14 bytes)")
        #expect(update.request.value(forHTTPHeaderField: "Authorization") == token)
        #expect(try text.parse(Data("hello".utf8), nil).get() == "hello")
    }

    @Test func tinyHTTPStyleAndLoading() async throws {
        let api = TodosAPI(url: try apiURL("/todos"))
        let transport = StubTransport(body: #"[{"id":1,"title":"Write"}]"#)
        let all = try await transport.load(api.all())
        #expect(all.map(\.id) == [1])
        #expect(transport.requests.first?.value(forHTTPHeaderField: "Accept") == "application/json")
        let deleting = StubTransport(status: 204)
        try await deleting.load(api.delete(id: 1))
        #expect(deleting.requests.first?.url?.absoluteString == "https://api.example.com/todos/1")
        #expect(deleting.requests.first?.httpMethod == "DELETE")
    }

    /// The README's `URLSession` lines: compiled, never run (the integration tests run them against a server).
    func urlSessionLoading(api: TodosAPI) {
        URLSession.shared.load(api.all()) { result in print(result) }
        let task = URLSession.shared.dataTask(endpoint: api.all()) { result in print(result) }
        task.resume()
    }

    @Test func tinyAPIStyle() async throws {
        let transport = StubTransport { request in
            let body = request.httpMethod != "GET" ? #"{"name":"Bob"}"# : #"[{"name":"Ada"}]"#
            return (Data(body.utf8), try makeResponse(request.httpMethod == "POST" ? 201 : 200, for: request))
        }
        let newUser = User(name: "Bob")
        let apiBase = "https://api.example.com/v1"
        let client: any APIClientProtocol = TinyAPIClient(transport: transport)
        let users = try await client.request(UserEndpoint.list, as: [User].self)
        let created = try await client.post(to: apiBase, path: "/users", body: newUser, as: User.self)
        let renamed = try await client.send(.put, to: apiBase, path: "/users/2", body: newUser, as: User.self)
        let shared = try UserEndpoint.detail(id: 1).endpoint(as: User.self)
        #expect(users == [User(name: "Ada")])
        #expect(created == newUser && renamed == newUser)
        #expect(
            transport.requests.map { "\($0.httpMethod ?? "") \($0.url?.absoluteString ?? "")" } == [
                "GET https://api.example.com/v1/users", "POST https://api.example.com/v1/users",
                "PUT https://api.example.com/v1/users/2",
            ])
        #expect(shared.request.url?.absoluteString == "https://api.example.com/v1/users/1")
    }
}
