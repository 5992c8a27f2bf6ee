import Foundation
import Testing
import TinyHTTPTransport
import TinyKitDemoServer
import TinyKitExampleCombinations
import TinyKitExamplesProgram

/// Every combination against the demo server and against the mocks, checked against the results the seed data
/// gives (the mocks hold the same records, so both give the same results).
@Suite(.timeLimit(.minutes(1))) struct CombinationTests {
    static let expected: [String: String] = [
        "TinyNetworking × async":
            #"4 posts, #1 "Notes on the engine", created #5, updated body "Edited.", deleted #5, #9999 → 404"#,
        "TinyNetworking × completion handler": ##"#2 "A bug in the relay""##,
        "TinyNetworking × StatefulEndpoint": #"list: 4 titles, first "Notes on the engine"; badge: 4"#,
        "TinyNetworking × Store": #"state.posts = .success(4 posts), last "The imitation game""#,
        "TinyHTTP × async":
            #"6 todos, #1 "Write the first program", created #7, updated completed=true, deleted #7, #9999 → 404"#,
        "TinyHTTP × completion handler": #"title "Find the moth""#,
        "TinyHTTP × StatefulEndpoint": "list: 6 todos; remaining: 3; same instance: true; relaunched: 6 then 6",
        "TinyHTTP × Store": "state.todos = .success(6 todos), 3 done",
        "tinyAPI × async":
            #"3 users, #1 "Ada Lovelace", created #4, updated email ada@analytical.example, deleted #4, "#
            + "#9999 → httpError(404)",
        "tinyAPI × completion handler": #""Grace Hopper" <grace@example.com>"#,
        "tinyAPI × StatefulEndpoint": "list: Ada Lovelace, Grace Hopper, Alan Turing; picker: ada, grace, alan",
        "tinyAPI × Store": #"users: 3, selected "Alan Turing"; posts: 4"#,
        "closure client × async": "4 posts, 2 by user 3, created #5, deleted #5",
        "closure client × Store": "live: On computable numbers, The imitation game; mock: 1 post",
    ]

    static let names = ExampleCatalog.all.map { $0.combination.description }

    @Test func everyCombinationHasAnExpectedResult() {
        #expect(Set(Self.names) == Set(Self.expected.keys))
        #expect(Self.names.count == 14)
    }

    @Test func everyStyleAndConsumerIsCoveredOrExplained() {
        let covered = Set(Self.names) + Set(ExampleCatalog.notMeaningful.map(\.combination))
        for style in Combination.Style.allCases {
            for consumer in Combination.Consumer.allCases {
                #expect(covered.contains("\(style) × \(consumer)"))
            }
        }
    }

    @Test(arguments: names)
    func runsAgainstTheDemoServer(name: String) async throws {
        let example = try #require(ExampleCatalog.all.first { $0.combination.description == name })
        let server = try await DemoServer.start()
        defer { Task { await server.stop() } }
        let context = ExampleContext(baseURL: server.baseURL, transport: URLSessionTransport())
        let report = try await example.run(context)
        #expect(report.result == Self.expected[name])
        #expect(!report.did.isEmpty)
    }

    @Test(arguments: names)
    func runsAgainstTheMocks(name: String) async throws {
        let example = try #require(ExampleCatalog.all.first { $0.combination.description == name })
        let mock = try ExampleMocks.transport()
        let context = ExampleContext(baseURL: ExampleMocks.baseURL, transport: mock)
        let report = try await example.run(context)
        #expect(report.result == Self.expected[name])
        #expect(!mock.requests.isEmpty)
    }

    @Test func runsTwiceOnOneServerWithTheSameResults() async throws {
        let server = try await DemoServer.start()
        defer { Task { await server.stop() } }
        let context = ExampleContext(baseURL: server.baseURL, transport: URLSessionTransport())
        for _ in 0..<2 {
            for example in ExampleCatalog.all {
                let report = try await example.run(context)
                #expect(report.result == Self.expected[example.combination.description])
            }
        }
    }

    @Test func eachExampleFileExists() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for example in ExampleCatalog.all {
            let path = repository.appendingPathComponent(example.combination.file).path
            #expect(FileManager.default.fileExists(atPath: path), "\(path)")
        }
    }
}

extension Set {
    static func + (lhs: Set, rhs: Set) -> Set { lhs.union(rhs) }
}
