import Dispatch
import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport

/// A task executor running its jobs one at a time on a dispatch queue the test can drain (`queue.sync {}`): a task
/// preferring it has run as far as it can once the queue is drained.
final class QueueExecutor: TaskExecutor, @unchecked Sendable {
    let queue = DispatchQueue(label: "helper-e.QueueExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Places where a test holds a request or a call until it lets it go, each named; `arrivals` says which arrived.
final class Holds: Sendable {
    private let held = Locked<[String: CheckedContinuation<Void, Never>]>([:])
    private let arrived: AsyncStream<String>.Continuation
    let arrivals: AsyncStream<String>

    init() { (arrivals, arrived) = AsyncStream.makeStream(of: String.self) }

    /// Waits at `name` until ``release(_:)``.
    func hold(_ name: String) async {
        await withCheckedContinuation { continuation in
            held.withLock { $0[name] = continuation }
            arrived.yield(name)
        }
    }

    /// Waits until something arrived at `name`.
    func waitForArrival(_ name: String) async {
        for await arrival in arrivals where arrival == name { return }
    }

    /// Lets go of what waits at `name`; the continuation is resumed on this thread.
    func release(_ name: String) { held.withLock { $0.removeValue(forKey: name) }?.resume() }
}

/// `current` until refreshed; each refresh hands out `Bearer <n>`. `credential()` call number `holdingCall` (1-based)
/// waits at `"credential"`.
private actor HeldTokens: CredentialProvider {
    private(set) var current = "Bearer 0"
    private(set) var rejected: [String?] = []
    private var generation = 0
    private var calls = 0
    let holdingCall: Int?
    let holds: Holds
    let refreshHold: Bool

    init(holds: Holds, holdingCall: Int? = nil, refreshHold: Bool = false) {
        self.holds = holds
        self.holdingCall = holdingCall
        self.refreshHold = refreshHold
    }

    func replace(with credential: String) { current = credential }

    func credential() async -> String? {
        calls += 1
        if calls == holdingCall { await holds.hold("credential") }
        return current
    }

    func refreshCredential(rejected credential: String?) async throws -> String {
        rejected.append(credential)
        if refreshHold { await holds.hold("refresh") }
        generation += 1
        current = "Bearer \(generation + 1)"
        return current
    }
}

/// Bugs of the authorization middleware found in review, fixed: each test failed before its fix.
@Suite(.timeLimit(.minutes(1))) struct AuthorizationReviewFindingsTests {
    /// Two `401`s race: A was refused `Bearer 0`, which was already replaced by `Bearer 1` (a sign-in elsewhere), so
    /// its refresh task hands out `Bearer 1` without refreshing. B was refused `Bearer 1` itself and arrives while
    /// that task runs and joins it. Per `CredentialProvider`, a refused credential equal to the current one is
    /// refreshed: B gets `Bearer 2`. It was sent again with the very credential it was refused, and failed with "the
    /// refreshed credential was refused too" although the provider was never asked to refresh `Bearer 1`.
    @Test func aRequestRefusedTheCurrentCredentialJoiningAReplacementIsRefreshed() async throws {
        let holds = Holds()
        // Call 1: A's credential; 2: B's; 3: the refresh task's "current first" check, held.
        let tokens = HeldTokens(holds: holds, holdingCall: 3)
        let seen = Recorder<String>()
        let server = ClosureTransport { request in
            let credential = request.value(forHTTPHeaderField: "Authorization") ?? "none"
            let first = !seen.all.contains(credential)
            seen.append(credential)
            if first, credential == "Bearer 0" || credential == "Bearer 1" { await holds.hold(credential) }
            return try reply(request, credential == "Bearer 2" ? 200 : 401)
        }
        let transport = server.with(.authorization(tokens))
        let executor = QueueExecutor()

        let a = Task { try await transport.send(URLRequest(method: .get, url: testURL)).1.statusCode }
        await holds.waitForArrival("Bearer 0")
        await tokens.replace(with: "Bearer 1")
        let b = Task(executorPreference: executor) {
            try await transport.send(URLRequest(method: .get, url: testURL)).1.statusCode
        }
        await holds.waitForArrival("Bearer 1")
        holds.release("Bearer 0")  // A is refused: its refresh task starts and is held checking the current one
        await holds.waitForArrival("credential")
        holds.release("Bearer 1")  // B is refused `Bearer 1` while A's refresh task runs
        executor.queue.sync {}  // B has run as far as it can: it waits on A's refresh task
        holds.release("credential")

        _ = await a.result  // A is sent again with `Bearer 1`, refused too: that is right for A
        let bStatus = await Result { try await b.value }
        let rejected = await tokens.rejected
        #expect((try? bStatus.get()) == 200)
        #expect(rejected == ["Bearer 1"])
    }

    /// A request waiting on a refresh is cancelled: per `HTTPTransport.send(_:)`, cancelling the awaiting task cancels
    /// the request, so it ends at once, as cancelled. It waited for the refresh to end (for as long as the token
    /// endpoint took), and was then even sent again.
    @Test func aRequestCancelledWhileWaitingOnARefreshEndsBeforeTheRefresh() async throws {
        let holds = Holds()
        let tokens = HeldTokens(holds: holds, refreshHold: true)
        let events = Recorder<String>()
        let seen = Recorder<String>()
        let transport = ClosureTransport { request in
            let credential = request.value(forHTTPHeaderField: "Authorization") ?? "none"
            seen.append(credential)
            return try reply(request, credential == "Bearer 0" ? 401 : 200)
        }.with(.authorization(tokens))

        let task = Task {
            let result = await Result { try await transport.send(URLRequest(method: .get, url: testURL)) }
            events.append("send ended")
            return result
        }
        await holds.waitForArrival("refresh")
        task.cancel()
        // Only so that the test ends should the request wait for the refresh again: the refresh is let go after a
        // while. The assertion is about the order, never about time.
        let fallback = Task {
            try await Task.sleep(for: .seconds(2))
            events.append("refresh let go")
            holds.release("refresh")
        }
        let result = await task.value
        fallback.cancel()
        holds.release("refresh")

        #expect(events.all.first == "send ended")
        #expect(seen.all == ["Bearer 0"])
        let error = try #require(throws: HTTPTransportError.self) { try result.get() }
        #expect(error.code == .cancelled)
    }
}
