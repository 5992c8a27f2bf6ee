import AsyncHTTPClient
import Foundation
import Testing
import TinyAsyncHTTPClientTransport
import TinyEndpoint
import TinyHTTPTransport

// Every ```swift block of TinyAsyncHTTPClientTransport's DocC comments and Documentation.docc articles, compiled here
// (the repository's other doc snippets are in Tests/TinyKitIntegrationTests/DocCommentSnippetTests.swift, which also
// checks that each block's lines appear in one of these files, in order). Each snippet is copied verbatim into a
// function named after its file and line, with only the context a reader supplies around it marked `// context`;
// `…` stands for code the snippet leaves out.
enum AsyncHTTPClientDocSnippets {
    struct Todo: Decodable, Sendable {  // context
        var id: Int  // context
        static let all = Endpoint<[Todo]>(json: .get, url: URL(string: "https://api.example.com/todos")!)  // context
    }

    // Packages/TinyAsyncHTTPClientTransport/Sources/TinyAsyncHTTPClientTransport/AsyncHTTPClientTransport.swift:13
    // Packages/TinyAsyncHTTPClientTransport/Sources/TinyAsyncHTTPClientTransport/Documentation.docc/TinyAsyncHTTPClientTransport.md:12
    static func shared(url: URL) async throws {
        let transport = AsyncHTTPClientTransport.shared
        let (body, response) = try await transport.send(URLRequest(method: .get, url: url))
        _ = (body, response)
    }

    // Packages/TinyAsyncHTTPClientTransport/Sources/TinyAsyncHTTPClientTransport/Documentation.docc/GettingStarted.md:26
    static func anyTransport() async throws {
        let todos = try await AsyncHTTPClientTransport.shared.load(Todo.all)  // an Endpoint<[Todo]> of TinyEndpoint
        let client = TinyAPIClient(transport: AsyncHTTPClientTransport.shared)
        _ = (todos, client)
    }

    // Packages/TinyAsyncHTTPClientTransport/Sources/TinyAsyncHTTPClientTransport/Documentation.docc/GettingStarted.md:38
    static func ownClient() async throws {
        var configuration = HTTPClient.Configuration.tinyKit
        configuration.timeout.read = .seconds(20)
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let transport = AsyncHTTPClientTransport(client: client, maximumResponseBodySize: 1 << 20)
        // …
        _ = transport  // context: the snippet's `…`
        try await client.shutdown()
    }
}

/// Runs the snippet that needs no server.
@Suite(.timeLimit(.minutes(1))) struct DocCommentSnippetTests {
    @Test func theOwnClientSnippetMakesAndShutsDownItsClient() async throws {
        try await AsyncHTTPClientDocSnippets.ownClient()
    }
}
