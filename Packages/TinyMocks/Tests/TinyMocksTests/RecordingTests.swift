import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyMocks

@Suite(.timeLimit(.minutes(1))) struct RecordingTests {
    @Test func recordsMethodURLHeadersAndBodyInOrder() async throws {
        let mock = MockTransport(files: fixtures)
        var post = try request(.post, "https://api.example.com/users", body: Data(#"{"name":"John"}"#.utf8))
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        _ = try await mock.send(request(.get, "https://api.example.com/users?page=1"))
        _ = try await mock.send(post)
        _ = try? await mock.send(request(.delete, "https://api.example.com/users/1"))

        let requests = mock.requests
        #expect(requests.map(\.method) == [.get, .post, .delete])
        #expect(
            requests.map { $0.url?.absoluteString } == [
                "https://api.example.com/users?page=1", "https://api.example.com/users",
                "https://api.example.com/users/1",
            ])
        let recorded = try #require(requests.dropFirst().first)
        #expect(recorded.httpBody == Data(#"{"name":"John"}"#.utf8))
        #expect(recorded.allHTTPHeaderFields?["Authorization"] == "Bearer t")
        #expect(recorded.value(forHTTPHeaderField: "content-type") == "application/json")
        #expect(recorded == post)
    }

    @Test func recordsEveryRequestUnderConcurrency() async throws {
        let mock = MockTransport(files: fixtures)
        mock.register(.get, "/counter", .status(200), .status(201), .status(202))
        let count = 200
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<count {
                group.addTask {
                    let path = index.isMultiple(of: 2) ? "/counter" : "/users/1"
                    return try await mock.send(request(.get, "https://h\(path)?i=\(index)")).1.statusCode
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let requests = mock.requests
        #expect(requests.count == count)
        let indices = requests.compactMap { $0.url?.query }.sorted()
        #expect(indices == (0..<count).map { "i=\($0)" }.sorted())
        // The sequence advanced exactly once per call: one 200, one 201, the rest 202.
        #expect(statuses.filter { $0 == 200 }.count == count / 2 + 1)
        #expect(statuses.filter { $0 == 201 }.count == 1)
        #expect(statuses.filter { $0 == 202 }.count == count / 2 - 2)
    }
}
