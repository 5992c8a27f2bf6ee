import Foundation
import Testing
import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Hands out `Bearer <n>` credentials: `Bearer 0` first, `Bearer 1` after the first refresh, and so on.
private actor Tokens: CredentialProvider {
    private(set) var generation = 0
    private(set) var rejected: [String?] = []
    let failure: (any Error)?

    init(failing failure: (any Error)? = nil) { self.failure = failure }

    func credential() -> String? { "Bearer \(generation)" }

    func refreshCredential(rejected credential: String?) async throws -> String {
        rejected.append(credential)
        if let failure { throw failure }
        await Task.yield()  // let other refused requests arrive while this refresh runs
        generation += 1
        return "Bearer \(generation)"
    }
}

/// Holds every caller until `count` of them arrived, then lets them all go.
private actor Gate {
    let count: Int
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { self.count = count }

    func arriveAndWait() async {
        arrived += 1
        if arrived >= count {
            for continuation in waiting { continuation.resume() }
            waiting = []
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
    }
}

@Suite struct MiddlewareAuthorizationTests {
    /// Accepts only `accepted`; answers 401 to anything else, after `gate` (when given) let it go.
    private func server(accepting accepted: String, seen: Recorder<String>, gate: Gate? = nil) -> ClosureTransport {
        ClosureTransport { request in
            let credential = request.value(forHTTPHeaderField: "Authorization") ?? "none"
            seen.append(credential)
            guard credential == accepted else {
                await gate?.arriveAndWait()
                return try reply(request, 401, body: #"{"error":"refused"}"#)
            }
            return try reply(request, 200, body: "hello")
        }
    }

    @Test func addsTheCredential() async throws {
        let seen = Recorder<String>()
        let transport = server(accepting: "Bearer 0", seen: seen).with(.authorization(Tokens()))

        let (_, response) = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(response.statusCode == 200)
        #expect(seen.all == ["Bearer 0"])
    }

    @Test func manyConcurrent401sShareOneRefreshAndAreAllReplayed() async throws {
        let count = 10
        let tokens = Tokens()
        let seen = Recorder<String>()
        let transport = server(accepting: "Bearer 1", seen: seen, gate: Gate(count: count))
            .with(.authorization(tokens))

        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask { try await transport.send(URLRequest(method: .post, url: testURL)).1.statusCode }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(statuses == Array(repeating: 200, count: count))
        #expect(await tokens.rejected == ["Bearer 0"])
        #expect(seen.all.filter { $0 == "Bearer 0" }.count == count)
        #expect(seen.all.filter { $0 == "Bearer 1" }.count == count)
    }

    @Test func aRefusedRefreshedCredentialFailsClearlyWithoutALoop() async throws {
        let tokens = Tokens()
        let seen = Recorder<String>()
        let transport = server(accepting: "Bearer 99", seen: seen).with(.authorization(tokens))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect(error.code == .unacceptableStatus(401))
        #expect(error.message == "the refreshed credential was refused too")
        #expect(error.body == Data(#"{"error":"refused"}"#.utf8))
        #expect(seen.all == ["Bearer 0", "Bearer 1"])
        #expect(await tokens.rejected == ["Bearer 0"])
        #expect(!error.description.contains("Bearer"))
    }

    @Test func aFailedRefreshFailsWithItsError() async throws {
        struct SignInAgain: Error {}
        let seen = Recorder<String>()
        let transport = server(accepting: "Bearer 1", seen: seen).with(.authorization(Tokens(failing: SignInAgain())))

        let error = try await #require(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }

        #expect(error.code == .unacceptableStatus(401))
        #expect(error.underlyingError is SignInAgain)
        #expect(error.message == "refreshing the refused credential failed")
        #expect(seen.all == ["Bearer 0"])
    }

    @Test func aLaterExpiryRefreshesAgain() async throws {
        let tokens = Tokens()
        let accepted = Recorder<String>()
        accepted.append("Bearer 1")
        let transport = ClosureTransport { request in
            let credential = request.value(forHTTPHeaderField: "Authorization")
            return try reply(request, credential == accepted.all.last ? 200 : 401)
        }.with(.authorization(tokens))

        #expect(try await transport.send(URLRequest(method: .get, url: testURL)).1.statusCode == 200)
        accepted.append("Bearer 2")  // the server now refuses "Bearer 1"
        #expect(try await transport.send(URLRequest(method: .get, url: testURL)).1.statusCode == 200)

        #expect(await tokens.rejected == ["Bearer 0", "Bearer 1"])
    }

    @Test func aRequestWithItsOwnCredentialIsLeftAlone() async throws {
        let tokens = Tokens()
        let seen = Recorder<String>()
        let transport = server(accepting: "Bearer 0", seen: seen).with(.authorization(tokens))
        var request = URLRequest(method: .get, url: testURL)
        request.setValue("Basic dXNlcjpwYXNz", forHTTPHeaderField: "authorization")

        let (_, response) = try await transport.send(request)

        #expect(response.statusCode == 401)
        #expect(seen.all == ["Basic dXNlcjpwYXNz"])
        #expect(await tokens.rejected.isEmpty)
    }

    @Test func usesAnotherHeaderWhenAsked() async throws {
        let seen = Recorder<String?>()
        let transport = ClosureTransport { request in
            seen.append(request.value(forHTTPHeaderField: "X-API-Key"))
            return try reply(request, 200)
        }.with(.authorization(Tokens(), header: "X-API-Key"))

        _ = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(seen.all == ["Bearer 0"])
    }
}
