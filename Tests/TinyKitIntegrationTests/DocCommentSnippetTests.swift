import Foundation
import Testing
import TinyKit
import TinyKitTestServer

// Every ```swift block of the DocC comments (`///`) of Packages/*/Sources, of their Documentation.docc articles and
// of Sources/TinyKit's, of Docs/*.md and of Examples/README.md, compiled here (TinyStoreTesting's, TinyHTTPLogging's
// and TinyAsyncHTTPClientTransport's in their own packages' DocCommentSnippetTests.swift). Each snippet is copied
// verbatim into a function named after its file and line, with only the context a reader supplies around it
// (imports, a `url`, a model type, an enclosing async throwing function), marked `// context:`.
// DocCommentSnippetCoverageTests checks that each block's lines appear here, in order, so an edit to a doc comment that
// is not mirrored here fails the build's tests.

/// The types and values the snippets take for granted, namespaced so that the README tests' `User` and `UserEndpoint`
/// do not clash with them.
enum DocSnippets {
    struct User: Codable, Sendable, Equatable {
        var id: Int
        var name: String
    }
    struct NewUser: Codable, Sendable { var name: String }
    struct Post: Codable, Sendable { var id: Int }
    struct Todo: Codable, Sendable { var id: Int }
    struct Item: Codable, Sendable { var id: Int }
    struct NoUsers: Error {}
    struct ValidationErrors: Decodable { var errors: [String] }
    enum UserEndpoint: TinyAPIEndpoint {
        case list
        case detail(id: Int)
        case create(NewUser)
        var baseURL: String { "https://api.example.com/v1" }
        var path: String { "/users" }
        var method: HTTPMethod { .GET }
    }
    static let url = URL(string: "https://api.example.com/users")!
    static let baseURL = URL(string: "https://api.example.com")!
}

// MARK: TinyHTTPTransport

extension DocSnippets {
    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/ContentType.swift:4
    static func contentType(request: URLRequest) {
        var request = request  // context
        request.httpAccept(.json)
        request.httpContentType("application/x-www-form-urlencoded")
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/CredentialProvider.swift:7
    static func fetchNewAccessToken(on transport: any HTTPTransport) async throws -> String { "new" }  // context
    actor Tokens: CredentialProvider {
        var accessToken = "old"
        let authServer: any HTTPTransport = URLSessionTransport.shared  // its own transport, without .authorization
        func credential() async throws -> String? { "Bearer \(accessToken)" }
        func refreshCredential(rejected: String?) async throws -> String {
            accessToken = try await fetchNewAccessToken(on: authServer)  // for example with your refresh token
            return "Bearer \(accessToken)"
        }
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/HTTPExchangeMetrics.swift:18
    static func metrics() {
        let transport = URLSessionTransport.shared.with(
            .retry(),
            .metrics { metrics in print((try? metrics.result.get())?.response.statusCode ?? 0, metrics.duration) })
        _ = transport
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/HTTPMethod.swift:5
    static func methods() {
        let method: HTTPMethod = .post
        let options: HTTPMethod = "OPTIONS"  // any other method, as a string literal
        _ = (method, options)
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/HTTPMiddleware+Authorization.swift:7
    static func authorization(tokens: Tokens) {
        let transport = URLSessionTransport.shared.with(.authorization(tokens))  // tokens: a CredentialProvider
        _ = transport
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/HTTPMiddleware+Headers.swift:6
    static func defaultHeaders() {
        let transport = URLSessionTransport.shared.with(.defaultHeaders(["Accept-Language": "de", "X-Client": "ios"]))
        _ = transport
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/HTTPMiddleware+Retry.swift:7
    static func retry() {
        let transport = URLSessionTransport.shared.with(.retry(RetryPolicy(maxAttempts: 4)))
        _ = transport
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/HTTPMiddleware.swift:10
    static func middlewareOrder(tokens: Tokens) {
        let transport = URLSessionTransport.shared.with(
            .retry(RetryPolicy(maxAttempts: 3)),  // outermost: each attempt goes through the ones below
            .authorization(tokens),  // adds the credential, refreshes it once on 401
            .defaultHeaders(["User-Agent": "MyApp/1.0"]))
        _ = transport
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/HTTPMiddleware.swift:19
    static func customMiddleware() -> HTTPMiddleware {
        let requestID = HTTPMiddleware { request, next in
            var request = request
            request.setValue(UUID().uuidString, forHTTPHeaderField: "X-Request-ID")
            return try await next.send(request)
        }
        return requestID  // context
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/HTTPMiddleware.swift:55
    static func with() {
        let transport = URLSessionTransport.shared.with(.retry(), .defaultHeaders(["User-Agent": "MyApp/1.0"]))
        _ = transport
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/HTTPRedaction.swift:9
    static func redaction() {
        let redaction = HTTPRedaction(headers: ["X-API-Key"], queryParameters: ["sig"])
        #expect(  // context: the comment's claim
            redaction.redacted(headers: ["Authorization": "Bearer abc", "Accept": "application/json"])
                // ["Authorization": "***", "Accept": "application/json"]
                == ["Authorization": "***", "Accept": "application/json"])  // context
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/HTTPTransport.swift:17
    static func transport(url: URL) async throws {
        let transport: any HTTPTransport = URLSessionTransport()
        let (body, response) = try await transport.send(URLRequest(url: url))
        _ = (body, response)
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/HTTPTransportError.swift:8
    static func timedOut(transport: any HTTPTransport, request: URLRequest) async throws {
        do {
            _ = try await transport.send(request)
        } catch let error as HTTPTransportError where error.code == .timedOut {
            // try again later
        }
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/HTTPTransportError.swift:123
    static func decodeBody(transport: any HTTPTransport, request: URLRequest) async throws -> ValidationErrors? {
        do {  // context
            _ = try await transport.send(request)  // context
        } catch let error as HTTPTransportError where error.code == .unacceptableStatus(422) {
            let problems = try error.decodeBody(as: ValidationErrors.self)
            return problems  // context
        }
        return nil  // context
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/RetryPolicy.swift:6
    static func retryPolicy() -> RetryPolicy {
        let policy = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(500), maxDelay: .seconds(10))
        return policy  // context
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/StatusCodeValidation.swift:21
    // Not formatted: the snippet's line is longer than the line length.
    // swift-format-ignore
    static func validation(transport: any HTTPTransport, request: URLRequest) async throws {
        let (body, response) = try await transport.send(request)
        try validateStatus(response: response, body: body, request: request)  // 2xx only
        try validateStatus(response: response, body: body, request: request, expectedStatusCode: expectedStatus([200, 304]))
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/URLRequest+Conveniences.swift:22
    static func setHeader(request: URLRequest, token: String) {
        var request = request  // context
        request.setHeader("Authorization", "Bearer \(token)")
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/URLSessionTransport.swift:5
    static func urlSessionTransport(url: URL) async throws {
        let transport = URLSessionTransport()
        let (body, response) = try await transport.send(URLRequest(method: .get, url: url))
        _ = (body, response)
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/Documentation.docc/GettingStarted.md:9
    static func gettingStartedSend(baseURL: URL, newTodo: Todo) async throws -> (Data, HTTPURLResponse, URLRequest) {
        let transport: any HTTPTransport = URLSessionTransport.shared

        var request = URLRequest(method: .post, url: baseURL.appendingRelative("todos"))
        request.httpAccept(.json)
        request.httpContentType(.json)
        request.httpBody = try JSONEncoder().encode(newTodo)

        let (body, response) = try await transport.send(request)
        return (body, response, request)  // context
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/Documentation.docc/GettingStarted.md:28
    // Not formatted: the snippet's line is longer than the line length.
    // swift-format-ignore
    static func gettingStartedValidate(body: Data, response: HTTPURLResponse, request: URLRequest) throws {
        try validateStatus(response: response, body: body, request: request)  // 200 through 299
        try validateStatus(response: response, body: body, request: request, expectedStatusCode: expectedStatus([200, 304]))
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/Documentation.docc/GettingStarted.md:40
    static func gettingStartedErrors(transport: any HTTPTransport, request: URLRequest) async throws {
        do {
            _ = try await transport.send(request)
        } catch let error as HTTPTransportError {
            switch error.code {
            case .cannotConnect, .timedOut: break  // offer to retry
            case .cancelled: break  // the task awaiting the request was cancelled
            case .unacceptableStatus(let status): print(status)
            case .invalidRequest, .other: print(error)  // the description names method, URL, status and cause
            }
        }
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/Documentation.docc/GettingStarted.md:69
    final class MyStubProtocol: URLProtocol {}  // context
    static func stubProtocol() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [MyStubProtocol.self]
        let transport = URLSessionTransport(configuration: configuration)
        _ = transport
    }

    // Packages/TinyHTTPTransport/Sources/TinyHTTPTransport/Documentation.docc/TinyHTTPTransport.md:15
    static func overview(baseURL: URL) async throws {
        let transport = URLSessionTransport.shared
        var request = URLRequest(method: .get, url: baseURL.appendingRelative("todos/1"))
        request.httpAccept(.json)
        let (body, response) = try await transport.send(request)
        try validateStatus(response: response, body: body, request: request)
    }
}

// MARK: TinyEndpoint

extension DocSnippets {
    // Packages/TinyEndpoint/Sources/TinyEndpoint/APIClientProtocol.swift:11
    struct APIClientDependency {
        let client: any APIClientProtocol
        static let live = APIClientDependency(client: TinyAPIClient.live)
    }
    static func apiClientDependency(baseURL: String) async throws {
        let posts = try await APIClientDependency.live.client.get(from: baseURL, path: "/posts", as: [Post].self)
        _ = posts
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/APIClientProtocol.swift:45
    static func apiClientGet(client: any APIClientProtocol) async throws {
        let users = try await client.get(from: "https://api.example.com", path: "/users", as: [User].self)
        _ = users
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/APIClientProtocol.swift:67
    static func apiClientPost(client: any APIClientProtocol, baseURL: String) async throws {
        let user = try await client.post(to: baseURL, path: "/users", body: NewUser(name: "Ada"), as: User.self)
        _ = user
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/APIClientProtocol.swift:105
    static func apiClientSend(client: any APIClientProtocol, baseURL: String, user: User) async throws {
        let user = try await client.send(.put, to: baseURL, path: "/users/1", body: user, as: User.self)
        _ = user
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Compatibility+TinyHTTP.swift:16
    static func tinyHTTPRequest(todosURL: URL, jsonDecoder: JSONDecoder) -> Endpoint<[Todo]> {
        var request = URLRequest(url: todosURL)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let todos = Endpoint<[Todo]>(request: request, decodeResponse: jsonDecoder.decodeResponse)
        return todos  // context
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Compatibility+TinyHTTP.swift:65
    static func tinyHTTPIgnoreResponse(request: URLRequest) -> Endpoint<Void> {
        let delete = Endpoint<Void>(request: request, decodeResponse: EndpointExpectation.ignoreResponse)
        return delete  // context
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Endpoint+JSON.swift:8
    static func jsonEndpoints(userURL: URL, usersURL: URL) {
        let user = Endpoint<User>(json: .get, url: userURL)
        let created = Endpoint<User>(json: .post, url: usersURL, body: NewUser(name: "Ada"))
        _ = (user, created)
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Endpoint+JSON.swift:66
    static func jsonUpdate(todoURL: URL, todo: Todo, authHeader: [String: String]) -> Endpoint<()> {
        let update = Endpoint<()>(json: .put, url: todoURL, body: todo, headers: authHeader)
        return update  // context
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Endpoint+JSON.swift:116
    static func jsonEmptyResponse(todoURL: URL) -> Endpoint<EmptyResponse> {
        let deleted = Endpoint<EmptyResponse>(json: .delete, url: todoURL)
        return deleted  // context
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Endpoint+JSON.swift:153
    static func jsonDecodeResponse(request: URLRequest, jsonDecoder: JSONDecoder) -> Endpoint<User> {
        Endpoint(request: request, decodeResponse: jsonDecoder.decodeResponse)
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Endpoint+Request.swift:7
    static func requestEndpoint(url: URL) -> Endpoint<String> {
        let endpoint = Endpoint<String>(.get, url: url, accept: .json, query: ["page": "2"]) { data, _ in
            Result { String(decoding: data ?? Data(), as: UTF8.self) }
        }
        return endpoint  // context
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Endpoint+Request.swift:41
    static func requestEndpointData(url: URL) -> Endpoint<String> {
        let text = Endpoint<String>(.get, url: url) { data in
            Result { String(decoding: data ?? Data(), as: UTF8.self) }
        }
        return text  // context
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Endpoint+Request.swift:65
    static func requestVoid(pingURL: URL) -> Endpoint<()> {
        let ping = Endpoint<()>(.post, url: pingURL)
        return ping  // context
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Endpoint.swift:10
    static func endpointLoad(usersURL: URL, transport: any HTTPTransport) async throws -> [User] {
        let endpoint = Endpoint<[User]>(json: .get, url: usersURL)
        let users = try await transport.load(endpoint)
        return users  // context
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Endpoint.swift:51
    static func endpointMap(url: URL) -> Endpoint<[String]> {
        let names: Endpoint<[String]> = Endpoint<[User]>(json: .get, url: url).map { $0.map(\.name) }
        return names  // context
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Endpoint.swift:61
    // Not formatted: the snippet's semicolon.
    // swift-format-ignore
    static func endpointCompactMap(usersEndpoint: Endpoint<[User]>) -> Endpoint<User> {
        let first: Endpoint<User> = usersEndpoint.compactMap { users in
            Result { guard let user = users.first else { throw NoUsers() }; return user }
        }
        return first  // context
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/EndpointError.swift:9
    static func endpointError(transport: any HTTPTransport, url: URL) async throws {
        do {
            let user = try await transport.load(Endpoint<User>(json: .get, url: url))
            _ = user  // context
        } catch let EndpointError.decodingFailed(type, codingPath, underlying, _) {
            print("\(type) at \(codingPath): \(underlying)")
        }
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/HTTPTransport+CompletionHandler.swift:7
    struct PostsAPI {  // context
        let url: URL
        func post(id: Int) -> Endpoint<Post> { Endpoint(json: .get, url: url.appendingRelative("posts/\(id)")) }
    }
    static func completionHandler(transport: any HTTPTransport, api: PostsAPI) {
        transport.load(api.post(id: 2)) { result in
            // result is a Result<Post, any Error>
            let _: Result<Post, any Error> = result  // context: the comment's claim
        }
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/HTTPTransport+Load.swift:8
    static func transportLoad(transport: any HTTPTransport, usersURL: URL) async throws {
        let users = try await transport.load(Endpoint<[User]>(json: .get, url: usersURL))
        _ = users
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/TinyAPIClient.swift:6
    static func tinyAPIClient() async throws {
        let apiClient = TinyAPIClient()
        let users = try await apiClient.get(from: "https://api.example.com", path: "/users", as: [User].self)
        let user = try await apiClient.request(UserEndpoint.detail(id: 1), as: User.self)
        _ = (users, user)
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/TinyAPIClient.swift:20
    static func tinyAPIClientDecoder(transport: any HTTPTransport) -> TinyAPIClient {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let client = TinyAPIClient(transport: transport, decoder: decoder)
        return client  // context
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/TinyAPIEndpoint.swift:6
    enum TinyAPIEndpointSnippet {
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

        static func run() async throws {  // context
            let users = try await TinyAPIClient.live.request(UserEndpoint.list, as: [User].self)
            _ = users
        }
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/TinyAPIEndpoint.swift:43
    enum CreateUserEndpoint: TinyAPIEndpoint {  // context
        case create(NewUser)
        case list
        var baseURL: String { "https://api.example.com/v1" }
        var path: String { "/users" }
        var method: HTTPMethod { .POST }
        var body: Data? {
            get throws {
                switch self {
                case .create(let user): try JSONEncoder().encode(user)
                default: nil
                }
            }
        }
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/TinyAPIEndpoint.swift:121
    static func tinyAPIEndpointAsEndpoint(transport: any HTTPTransport) async throws {
        let endpoint = try UserEndpoint.list.endpoint(as: [User].self)
        let users = try await transport.load(endpoint)
        _ = users
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/TinyAPIError.swift:10
    static func signIn() {}  // context
    static func tinyAPIError(client: TinyAPIClient) async {
        do {
            _ = try await client.request(UserEndpoint.list, as: [User].self)
        } catch let error as TinyAPIError {
            switch error.kind {
            case .httpError(401): signIn()
            case .httpError(let status): print("HTTP \(status)", error.underlyingError ?? "")
            default: print(error.localizedDescription)
            }
        } catch {}  // context
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/URLSession+Endpoint.swift:7
    static func urlSessionLoad(endpoint: Endpoint<User>) {
        URLSession.shared.load(endpoint) { result in
            print(result)
        }
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/URLSession+Endpoint.swift:33
    static func urlSessionDataTask(endpoint: Endpoint<User>) {
        let task = URLSession.shared.dataTask(endpoint: endpoint) { result in
            print(result)
        }
        task.resume()
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Documentation.docc/GettingStarted.md:9
    static func userInfo(login: String) -> Endpoint<User> {
        Endpoint(json: .get, url: baseURL.appendingRelative("users/\(login)"))
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Documentation.docc/GettingStarted.md:17
    static func gettingStartedRequest(todosURL: URL, jsonDecoder: JSONDecoder) -> Endpoint<[Todo]> {
        var request = URLRequest(method: .get, url: todosURL)
        request.httpAccept(.json)
        let todos = Endpoint<[Todo]>(request: request, decodeResponse: jsonDecoder.decodeResponse)
        return todos  // context
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Documentation.docc/GettingStarted.md:31
    static func gettingStartedRequestError(todoURL: URL, todo: Todo, authHeader: [String: String]) {
        let update = Endpoint<()>(json: .put, url: todoURL, body: todo, headers: authHeader)
        if let error = update.requestError { print(error) }  // or let `load` throw it
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Documentation.docc/GettingStarted.md:43
    static func gettingStartedLoad() async throws {
        let user = try await URLSessionTransport.shared.load(userInfo(login: "objcio"))
        _ = user
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Documentation.docc/GettingStarted.md:56 (run by DocCommentSnippetTests)
    static func gettingStartedTests() {
        #expect(userInfo(login: "objcio").request.url?.path == "/users/objcio")
        #expect(throws: EndpointError.self) { try userInfo(login: "x").parse(nil, nil).get() }
    }

    // Packages/TinyEndpoint/Sources/TinyEndpoint/Documentation.docc/TinyEndpoint.md:11
    static func overviewLoad(transport: any HTTPTransport) async throws {
        let endpoint = Endpoint<[Todo]>(json: .get, url: baseURL.appendingRelative("todos"))
        let todos = try await transport.load(endpoint)
        _ = todos
    }
}

// MARK: TinyKitTestServer

extension DocSnippets {
    // Packages/TinyKitTestServer/Sources/TinyKitTestServer/RawSocketServer.swift:20
    // Not formatted: the snippet's line is longer than the line length.
    // swift-format-ignore
    static func rawSocketServer() throws {
        let server = try RawSocketServer.start([.send(Data("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8)), .reset])
        defer { server.stop() }
        _ = server.url("/")  // context
    }

    // Packages/TinyKitTestServer/Sources/TinyKitTestServer/TestResponse.swift:5
    struct CreatedUser: Codable, Sendable { var id: Int }  // context
    static func testResponses(server: TestServer) async {
        typealias NewUser = CreatedUser  // context: the snippet's NewUser has an `id`
        await server.route("GET /users") { _ in .json(200, #"[{"id": 1}]"#) }
        await server.route("POST /users") { request in try .json(201, NewUser(id: 2)) }
        await server.route("GET /slow") { _ in TestResponse.json(200, "{}").delayed(by: 2) }
    }

    // Packages/TinyKitTestServer/Sources/TinyKitTestServer/TestServer.swift:9
    static func testServer(transport: any HTTPTransport) async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        await server.route("GET /users") { _ in .json(200, #"[{"id":1}]"#) }
        let (data, response) = try await transport.send(URLRequest(url: server.url("/users")))
        let seen = try #require(server.requests.first)  // method, path, query, headers, body as received
        _ = (data, response, seen)
    }
}

// MARK: TinyRequestState

extension DocSnippets {
    // Packages/TinyRequestState/Sources/TinyRequestState/Refreshable.swift:7
    static func refreshable() {
        var users = Refreshable<[String]>()
        users.state = .success(["Ada"])
        users.state = .loading  // users.value == ["Ada"], users.state.isLoading == true
        #expect(users.value == ["Ada"] && users.state.isLoading == true)  // context: the comment's claim
        users.state = .failure("Offline")  // users.value == ["Ada"], users.state.error?.message == "Offline"
        #expect(users.value == ["Ada"] && users.state.error?.message == "Offline")  // context: the comment's claim
    }

    // Packages/TinyRequestState/Sources/TinyRequestState/RequestError.swift:9
    static func requestError() {
        let failure = RequestError(URLError(.notConnectedToInternet), message: "You are offline")
        #expect(  // context: the comment's claim
            failure.message  // "You are offline"
                == "You are offline")  // context
        #expect(  // context: the comment's claim
            (failure.underlyingError as? URLError)?.code  // .notConnectedToInternet
                == .notConnectedToInternet)  // context
    }

    // Packages/TinyRequestState/Sources/TinyRequestState/RequestState+Helpers.swift:30
    static func requestStateMap(users: RequestState<[User]>) -> RequestState<[String]> {
        let names: RequestState<[String]> = users.map { $0.map(\.name) }
        return names  // context
    }

    // Packages/TinyRequestState/Sources/TinyRequestState/RequestState+Helpers.swift:44
    struct UsersState { var users: RequestState<[User]> = .idle }  // context
    enum UsersAction { case usersResponse(Result<[User], TinyAPIError>) }  // context
    static func requestStateResult(state: inout UsersState, action: UsersAction) {
        switch action {  // context
        case .usersResponse(let result): state.users = RequestState(result)
        }  // context
    }

    // Packages/TinyRequestState/Sources/TinyRequestState/RequestState+Helpers.swift:57
    struct UsersAPI { func users() async throws -> [User] { [] } }  // context
    static func requestStateAsync(state: inout UsersState, api: UsersAPI) async {
        state.users = await RequestState { try await api.users() }
    }

    // Packages/TinyRequestState/Sources/TinyRequestState/RequestState.swift:3
    static func requestState(client: TinyAPIClient) async throws {
        var users: RequestState<[User]> = .idle
        users = .loading
        users = .success(try await client.request(UserEndpoint.list, as: [User].self))
        _ = users
    }

    // Packages/TinyRequestState/Sources/TinyRequestState/Documentation.docc/GettingStarted.md:7
    enum RequestStateGettingStarted {
        struct State: Sendable, Equatable {
            var users: RequestState<[User]> = .idle
        }

        static func reduce(state: inout State, users: [User], error: any Error) {  // context
            // In a reducer:
            state.users = .loading
            state.users = .success(users)
            state.users = .failure(error.localizedDescription)
        }
    }

    // Packages/TinyRequestState/Sources/TinyRequestState/Documentation.docc/GettingStarted.md:25
    enum APIError: Error { case unauthorized }  // context
    static func requestStateTypedError(state: inout UsersState, result: Result<[User], APIError>) {
        state.users = RequestState(result)  // Result<[User], APIError>
        if case .unauthorized = state.users.error?.underlyingError as? APIError {
            // ask the user to sign in
        }
    }

    // Packages/TinyRequestState/Sources/TinyRequestState/Documentation.docc/GettingStarted.md:34
    static func refreshableGettingStarted(list: [User]) {
        var users = Refreshable<[User]>()
        users.state = .success(list)
        users.state = .loading  // users.value is still `list`
        #expect(users.value == list)  // context: the comment's claim
    }
}

// MARK: TinyStatefulEndpoint

extension DocSnippets {
    struct TodosAPI: Sendable {  // context
        var url = URL(string: "https://api.example.com/todos")!
        func get() -> Endpoint<[Todo]> { Endpoint(json: .get, url: url) }
        func todos() -> Endpoint<[Todo]> { get() }
    }
    struct RatesAPI: Sendable {  // context
        func rates() -> Endpoint<[String: Double]> { Endpoint(json: .get, url: URL(string: "https://rates.example")!) }
    }

    // Packages/TinyStatefulEndpoint/Sources/TinyStatefulEndpoint/EndpointCache.swift:7
    enum EndpointCacheSnippet {
        // context: a stand-in for the server transport
        enum AsyncHTTPClientTransport { static let shared: any HTTPTransport = MockTransport() }
        // Not formatted: the snippet's own line breaks.
        // swift-format-ignore
        static func run(upstream: RatesAPI) async throws {  // context
            let rates = EndpointCache(endpoint: upstream.rates(), transport: AsyncHTTPClientTransport.shared,
                                      maximumAge: .seconds(30))
            // In each request handler:
            let current = try await rates.value()
            _ = current
        }
    }

    // Packages/TinyStatefulEndpoint/Sources/TinyStatefulEndpoint/EndpointLoading.swift:41
    // Packages/TinyStatefulEndpoint/Sources/TinyStatefulEndpoint/EndpointLoading.swift:113
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)  // context
    final class TodosController: EndpointLoading {
        let todos = StatefulEndpoint(endpoint: TodosAPI().get(), transport: MockTransport())  // context
        func show(_ items: [Todo]) {}  // context
        func start() {
            observe(endpoint: todos) { controller, items in controller.show(items) }
        }
    }

    // Packages/TinyStatefulEndpoint/Sources/TinyStatefulEndpoint/EndpointRegistry.swift:7
    @MainActor static func registry(transport: any HTTPTransport, api: TodosAPI) {
        let registry = EndpointRegistry(transport: transport)
        let a = registry.statefulEndpoint(for: api.get())
        let b = registry.statefulEndpoint(for: api.get())  // the same instance as `a`
        #expect(a === b)  // context: the comment's claim
    }

    // Packages/TinyStatefulEndpoint/Sources/TinyStatefulEndpoint/ResponseStore.swift:26
    static func fileResponseStore(api: TodosAPI) {
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
        let todos = StatefulEndpoint(endpoint: api.todos(), store: FileResponseStore(directory: caches))
        _ = todos
    }

    // Packages/TinyStatefulEndpoint/Sources/TinyStatefulEndpoint/StatefulEndpoint+Observe.swift:27
    // Packages/TinyStatefulEndpoint/Sources/TinyStatefulEndpoint/StatefulEndpoint.swift:12
    // Packages/TinyStatefulEndpoint/Sources/TinyStatefulEndpoint/Documentation.docc/GettingStarted.md:46
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)  // context
    @MainActor final class TodosScreen {
        func render(_ state: RequestState<[Todo]>) {}  // context
        init(todos: StatefulEndpoint<[Todo]>) {  // context
            todos.observe(owner: self) { screen, state in screen.render(state) }
        }
        init(api: TodosAPI, transport: any HTTPTransport) {  // context
            let todos = StatefulEndpoint(endpoint: api.get(), transport: transport)
            todos.observe(owner: self) { screen, state in screen.render(state) }
        }
        init(controllerOf todos: StatefulEndpoint<[Todo]>) {  // context
            todos.observe(owner: self) { controller, state in
                controller.render(state)
            }
        }
    }

    // Packages/TinyStatefulEndpoint/Sources/TinyStatefulEndpoint/StatefulEndpoint+Observe.swift:41
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)  // context
    @MainActor static func observeToken(todos: StatefulEndpoint<[Todo]>) -> ObservationToken {
        let token = todos.observe { state in print(state) }  // keep `token` for as long as you observe
        return token  // context
    }

    // Packages/TinyStatefulEndpoint/Sources/TinyStatefulEndpoint/StatefulEndpoint+Observe.swift:54
    @MainActor static func states(todos: StatefulEndpoint<[Todo]>) async {
        for await state in todos.states {
            if case .success(let items) = state { print(items.count) }
        }
    }

    // Packages/TinyStatefulEndpoint/Sources/TinyStatefulEndpoint/Documentation.docc/GettingStarted.md:10
    enum StatefulGettingStarted {  // context
        final class TodosAPI {
            lazy var all: StatefulEndpoint<[Todo]> = {
                StatefulEndpoint(endpoint: self.get())
            }()

            func get() -> Endpoint<[Todo]> { DocSnippets.TodosAPI().get() }  // context: the snippet's `{ … }`
        }
    }

    // Packages/TinyStatefulEndpoint/Sources/TinyStatefulEndpoint/Documentation.docc/GettingStarted.md:22
    @MainActor static func sharedRegistry(api: TodosAPI) {
        let todos = EndpointRegistry.shared.statefulEndpoint(for: api.get())
        _ = todos
    }

    // Packages/TinyStatefulEndpoint/Sources/TinyStatefulEndpoint/Documentation.docc/GettingStarted.md:39 is SwiftUI
    // (compiled where SwiftUI is).
    #if canImport(SwiftUI)
        @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)  // context
        struct TodosView: View {
            let todos: StatefulEndpoint<[Todo]>  // context
            var body: some View {  // context
                Text("\(todos.value?.count ?? 0) todos")
                    .task { todos.loadIfNeeded() }
            }
        }
    #endif

    // Packages/TinyStatefulEndpoint/Sources/TinyStatefulEndpoint/Documentation.docc/GettingStarted.md:54
    @MainActor static func gettingStartedStates(todos: StatefulEndpoint<[Todo]>) async -> Int {
        var count = 0  // context
        todos.loadIfNeeded()
        for await state in todos.states {
            if case .success(let items) = state { count = items.count }
        }
        return count  // context
    }
}

// Packages/TinyStatefulEndpoint/Sources/TinyStatefulEndpoint/EndpointLoading.swift:19
extension EndpointLoadingDefaults {  // context
    static let app = EndpointLoadingDefaults(transport: MockTransport())  // context
}  // context
protocol AppEndpointLoading: EndpointLoading {}
extension AppEndpointLoading {
    var endpointLoadingDefaults: EndpointLoadingDefaults { .app }  // your `static let app`
}

// MARK: TinyKit (Sources/TinyKit/Documentation.docc/GettingStarted.md)

enum UmbrellaGettingStarted {
    // Not formatted: the snippet's semicolon.
    // swift-format-ignore
    struct User: Codable, Sendable { var id: Int; var name: String }

    static let baseURL = URL(string: "https://api.example.com")!  // context
    // baseURL: your API's base URL, for example https://api.example.com
    static func user(id: Int) -> Endpoint<User> {
        Endpoint(json: .get, url: baseURL.appendingRelative("users/\(id)"))
    }

    // Sources/TinyKit/Documentation.docc/GettingStarted.md:32
    static func load() async throws {
        let transport = URLSessionTransport.shared.with(.retry(), .defaultHeaders(["User-Agent": "MyApp/1.0"]))
        let ada = try await transport.load(user(id: 1))
        transport.load(user(id: 2)) { result in print(result) }  // a callback instead
        _ = ada
    }

    // Sources/TinyKit/Documentation.docc/GettingStarted.md:42
    static func mock() async throws -> User {
        let mock = MockTransport()
        mock.register(.get, "/users/1", .json(#"{"id":1,"name":"Ada"}"#))
        let stub = try await mock.load(user(id: 1))
        return stub  // context
    }

    // Sources/TinyKit/Documentation.docc/GettingStarted.md:52
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)  // context
    @MainActor final class Screen {
        func render(_ state: RequestState<User>) {}  // context
        init(transport: any HTTPTransport) {  // context
            let shared = StatefulEndpoint(endpoint: user(id: 1), transport: transport)
            shared.observe(owner: self) { screen, state in screen.render(state) }
        }
    }
}

// MARK: Docs/ComingFromClosureClients.md:28

enum ClosureClientsDocSnippet {
    struct Item: Codable, Sendable { var id: Int }  // context
    struct ItemsClient {  // context
        var fetchItems: @Sendable (Int) async throws -> [Item]
        var search: @Sendable (String, Int) async throws -> [Item]
    }
    static func live(session: URLSession, baseURL: URL) -> ItemsClient {  // context
        ItemsClient(  // context
            fetchItems: { limit in
                // build URL, call session, decode
                try await session.load(
                    Endpoint<[Item]>(json: .get, url: baseURL.appendingRelative("items"), query: ["limit": "\(limit)"]))
            },
            search: { query, limit in
                // build URL, call session, decode
                try await session.load(
                    Endpoint<[Item]>(
                        json: .get, url: baseURL.appendingRelative("search"),
                        query: ["q": query, "limit": "\(limit)"]))
            }
        )  // context
    }
}

// Packages/TinyKitTestServer/Sources/TinyKitTestServer/TransportBehaviour.swift:12
// Packages/TinyKitTestServer/Sources/TinyKitTestServer/TransportBehaviourCase.swift:10
@Suite(.timeLimit(.minutes(1)), .disabled("compiled only: TransportIntegrationTests runs the suite on each transport"))
struct TransportBehaviourDocSnippet {
    @Test(arguments: TransportBehaviour.cases)
    func behaviour(_ check: TransportBehaviourCase) async throws {
        try await check.run(URLSessionTransport(configuration: .ephemeral))
    }
}

// MARK: Running the snippets, and checking that every one is here

/// Runs the snippets whose comments claim a result, and checks that every ```swift block of the doc comments and
/// articles is compiled by one of the DocCommentSnippetTests.swift files.
@Suite(.timeLimit(.minutes(1))) struct DocCommentSnippetTests {
    @Test func redactionHidesTheDefaultSecrets() {
        DocSnippets.redaction()
    }

    @Test func refreshableAndRequestErrorKeepWhatTheySay() {
        DocSnippets.refreshable()
        DocSnippets.requestError()
        DocSnippets.refreshableGettingStarted(list: [DocSnippets.User(id: 1, name: "Ada")])
    }

    @Test func endpointGettingStartedTests() {
        DocSnippets.gettingStartedTests()
    }

    @MainActor @Test func registryHandsOutOneInstancePerEndpoint() {
        DocSnippets.registry(transport: MockTransport(), api: DocSnippets.TodosAPI())
    }

    @Test func theUmbrellaMockSnippetLoadsTheStub() async throws {
        let stub = try await UmbrellaGettingStarted.mock()
        #expect(stub.id == 1 && stub.name == "Ada")
    }

    /// EndpointError.swift:9: a body that does not decode reaches the `catch let EndpointError.decodingFailed` clause
    /// (the snippet rethrows anything else).
    @Test func aDecodingFailureIsCaughtAsTheSnippetCatchesIt() async throws {
        let mock = MockTransport()
        mock.register(.get, "/users/1", .json(#"{"id":"one","name":"Ada"}"#))
        try await DocSnippets.endpointError(transport: mock, url: URL(fileURLWithPath: "/users/1"))
    }

    /// TinyAPIError.swift:10: a 401 is `.httpError(401)`, the case the snippet signs in on.
    @Test func a401IsTheHTTPErrorCaseTheSnippetMatches() async throws {
        let mock = MockTransport()
        mock.register(.get, "/v1/users", .status(401))
        let client = TinyAPIClient(transport: mock)
        let error = try await #require(throws: TinyAPIError.self) {
            try await client.request(DocSnippets.UserEndpoint.list, as: [DocSnippets.User].self)
        }
        guard case .httpError(401) = error.kind else {
            Issue.record("kind \(error.kind)")
            return
        }
        await DocSnippets.tinyAPIError(client: client)
    }

    /// TestServer.swift:9 and TestResponse.swift:5: the routes answer as written, and the server records the request.
    @Test func theTestServerSnippetsRun() async throws {
        try await DocSnippets.testServer(transport: URLSessionTransport(configuration: .ephemeral))
        let server = try await TestServer.start()
        defer { server.stop() }
        await DocSnippets.testResponses(server: server)
        var request = URLRequest(method: .post, url: server.url("/users"))
        request.httpBody = Data("{}".utf8)
        let (body, response) = try await URLSessionTransport(configuration: .ephemeral).send(request)
        #expect(response.statusCode == 201)
        #expect(try JSONDecoder().decode(DocSnippets.CreatedUser.self, from: body).id == 2)
    }

    /// HTTPTransport+CompletionHandler.swift:7 and the umbrella's GettingStarted.md:42: the callback and the stub.
    @Test func theCompletionHandlerDeliversTheResult() async throws {
        let mock = MockTransport()
        mock.register(.get, "/posts/2", .json(#"{"id":2}"#))
        let api = DocSnippets.PostsAPI(url: URL(fileURLWithPath: "/"))
        let post = try await withCheckedThrowingContinuation { continuation in
            mock.load(api.post(id: 2)) { continuation.resume(with: $0) }
        }
        #expect(post.id == 2)
    }

    // MARK: Coverage

    static let repository = ReadmeSnippetTests.repository

    /// The files that compile the doc snippets.
    static let snippetTests = [
        "Tests/TinyKitIntegrationTests/DocCommentSnippetTests.swift",
        "Packages/TinyMocks/Tests/TinyMocksTests/DocCommentSnippetTests.swift",
        "Packages/TinyStore/Tests/TinyStoreTests/DocCommentSnippetTests.swift",
        "Packages/TinyHTTPLogging/Tests/TinyHTTPLoggingTests/DocCommentSnippetTests.swift",
        "Packages/TinyAsyncHTTPClientTransport/Tests/TinyAsyncHTTPClientTransportTests/DocCommentSnippetTests.swift",
    ]

    /// The ```swift blocks of a text: of its `///` comments for Swift source, of the whole text for Markdown. Each
    /// block is its trimmed, non-empty lines and the line its fence opens on.
    static func swiftBlocks(_ text: String, docComments: Bool) -> [(line: Int, lines: [String])] {
        var block: (line: Int, lines: [String])?
        var blocks: [(line: Int, lines: [String])] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if docComments {
                guard line.hasPrefix("///") else {
                    block = nil
                    continue
                }
                line = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            }
            if line.hasPrefix("```") {
                if let finished = block, !finished.lines.contains(where: ReadmeSnippetTests.isManifestLine) {
                    blocks.append(finished)
                }
                block = block == nil && line == "```swift" ? (index + 1, []) : nil
            } else if !line.isEmpty {
                block?.lines.append(line)
            }
        }
        return blocks
    }

    /// Whether a test's line is the snippet's: equal, or, where the snippet leaves code out with `…`, the same before
    /// and after it.
    static func matches(_ snippetLine: String, _ testLine: String) -> Bool {
        // Runs of spaces count as one: swift-format aligns end-of-line comments its own way.
        let (snippetLine, testLine) = (collapsingSpaces(snippetLine), collapsingSpaces(testLine))
        // A snippet's free function may be nested, as `static`, in a namespace of the test.
        guard let gap = snippetLine.range(of: "…") else {
            return snippetLine == testLine || "static " + snippetLine == testLine
        }
        // The test's own comment after the code it wrote for the gap, `// context…`, is not the snippet's.
        let code = testLine.range(of: " // context").map { String(testLine[..<$0.lowerBound]) } ?? testLine
        let (head, tail) = (snippetLine[..<gap.lowerBound], snippetLine[gap.upperBound...])
        // `{ … }` at the end of a line: the test may write the body on lines of its own.
        if head.hasSuffix("{ ") && tail.trimmingCharacters(in: .whitespaces) == "}"
            && code == head.trimmingCharacters(in: .whitespaces)
        {
            return true
        }
        return code.count >= head.count + tail.count && code.hasPrefix(head) && code.hasSuffix(tail)
    }

    static func collapsingSpaces(_ line: String) -> String {
        line.contains("  ") ? line.split(separator: " ").joined(separator: " ") : line
    }

    /// The lines of `snippet` not found in `source` in their order.
    static func missing(_ snippet: [String], in source: [String]) -> [String] {
        var rest = source[...]
        return snippet.filter { line in
            guard let found = rest.firstIndex(where: { matches(line, $0) }) else { return true }
            rest = rest[(found + 1)...]
            return false
        }
    }

    /// The documented files, relative to the repository: Swift sources of Packages/*/Sources and Sources, Markdown of
    /// their DocC catalogs, Docs/*.md and Examples/README.md.
    static func documentedFiles() -> [String] {
        var files = ["Examples/README.md"]
        let manager = FileManager.default
        for folder in ["Packages", "Sources", "Docs"] {
            let root = repository.appendingPathComponent(folder)
            guard let walk = manager.enumerator(at: root, includingPropertiesForKeys: nil, options: .skipsHiddenFiles)
            else { continue }
            for case let url as URL in walk {
                let path = String(url.standardizedFileURL.path.dropFirst(repository.standardizedFileURL.path.count + 1))
                let parts = path.split(separator: "/")
                if parts.contains(where: { $0.hasPrefix(".") }) { continue }
                let inSources = folder != "Packages" || (parts.count > 2 && parts[2] == "Sources")
                if inSources
                    && (path.hasSuffix(".swift") || path.hasSuffix(".md") && (folder != "Docs" || parts.count == 2))
                {
                    files.append(path)
                }
            }
        }
        return files.sorted()
    }

    @Test func extractsDocCommentBlocks() {
        let source = """
            /// Text.
            ///
            /// ```swift
            /// let a = 1
            ///
            ///     print(a)
            /// ```
            func f() {}
            // ```swift
            // not a doc comment
            // ```
            """
        let blocks = Self.swiftBlocks(source, docComments: true)
        #expect(blocks.map(\.line) == [3])
        #expect(blocks.map(\.lines) == [["let a = 1", "print(a)"]])
    }

    @Test func anEllipsisStandsForAnyCode() {
        #expect(Self.matches("func get() -> Endpoint<[Todo]> { … }", "func get() -> Endpoint<[Todo]> { api.get() }"))
        #expect(!Self.matches("func get() -> Endpoint<[Todo]> { … }", "func put() -> Endpoint<[Todo]> { api.get() }"))
        #expect(Self.matches("for x in xs { … }", "for x in xs { print(x) }  // context: the snippet's `…`"))
        #expect(Self.matches("struct F: Feature { … }", "struct F: Feature {"))
        #expect(!Self.matches("struct F: Feature { … }", "struct G: Feature {"))
        #expect(Self.matches("let a = 1", "let a = 1") && !Self.matches("let a = 1", "let a = 2"))
        #expect(Self.matches("let a = 1   // one", "let a = 1  // one"))
        #expect(Self.matches("func f() {", "static func f() {") && !Self.matches("func f() {", "private func f() {"))
    }

    @Test func everyDocSnippetIsCompiledByATest() throws {
        let tests = try Self.snippetTests.map { path in
            try String(contentsOf: Self.repository.appendingPathComponent(path), encoding: .utf8)
                .split(separator: "\n").map { Self.collapsingSpaces($0.trimmingCharacters(in: .whitespaces)) }
        }
        let files = Self.documentedFiles()
        #expect(files.contains("Packages/TinyEndpoint/Sources/TinyEndpoint/Endpoint.swift"))
        #expect(files.contains("Sources/TinyKit/Documentation.docc/GettingStarted.md"))
        var count = 0
        for file in files {
            let text = try String(contentsOf: Self.repository.appendingPathComponent(file), encoding: .utf8)
            for block in Self.swiftBlocks(text, docComments: file.hasSuffix(".swift")) {
                count += 1
                let missing = tests.map { Self.missing(block.lines, in: $0) }.min { $0.count < $1.count } ?? block.lines
                #expect(
                    missing.isEmpty,
                    """
                    \(file):\(block.line): lines not compiled, in this order, by any of \
                    \(Self.snippetTests.joined(separator: ", ")):
                    \(missing.joined(separator: "\n"))
                    """)
            }
        }
        #expect(count > 100)
    }
}
