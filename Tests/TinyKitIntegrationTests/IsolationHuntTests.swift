import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyKit
import TinyKitTestServer
import TinyStoreTesting

/// Actor isolation and concurrency guarantees across every entry point: decoding never on the main actor, callbacks
/// where their documentation puts them, cancellation that reaches the request (and only its own), exactly-once
/// completions and in-order, exactly-once state delivery under races. Serialized: the probe's own check holds up the
/// main actor on purpose, which the other probes would see.
@Suite(.timeLimit(.minutes(1)), .serialized) struct IsolationHuntTests {
    // MARK: Probes

    /// Records, for each parse or decode, whether it held up the main actor: it waits (at most ten seconds) for a job
    /// it enqueues on the main actor, which can run only if the caller is not on it. (`Thread.isMainThread` does not
    /// tell here: on Linux the main actor's jobs do not all run on the main thread.)
    final class Recorder: Sendable {
        private let calls = Locked<[Bool]>([])

        func record() { calls.withLock { $0.append(Self.holdsUpTheMainActor()) } }

        /// Whether a job enqueued on the main actor now cannot run within `seconds` (ten by default, as in
        /// `LoadingTests`: under a sanitizer on two busy cores, the main actor can be slow to come round).
        static func holdsUpTheMainActor(within seconds: Double = 10) -> Bool {
            let ran = DispatchSemaphore(value: 0)
            Task { @MainActor in ran.signal() }
            return ran.wait(timeout: .now() + seconds) == .timedOut
        }

        var onMain: [Bool] { calls.withLock { $0 } }

        /// The decoder that hands this recorder to ``Probe``.
        var decoder: JSONDecoder {
            let decoder = JSONDecoder()
            if let key = Probe.key { decoder.userInfo[key] = self }
            return decoder
        }
    }

    /// A `Decodable` whose `init(from:)` reports to the decoder's ``Recorder`` where it runs.
    struct Probe: Decodable, Sendable, Equatable {
        static var key: CodingUserInfoKey? { CodingUserInfoKey(rawValue: "IsolationHuntTests.Probe") }

        init() {}

        init(from decoder: any Decoder) throws {
            if let key = Self.key { (decoder.userInfo[key] as? Recorder)?.record() }
        }
    }

    /// An endpoint whose parse function reports where it runs.
    static func probe(_ url: URL, _ recorder: Recorder) -> Endpoint<Probe> {
        Endpoint(request: URLRequest(url: url)) { _, _ in
            recorder.record()
            return .success(Probe())
        }
    }

    /// An endpoint that parses nothing, for the races (where a probe would block a thread of the small pool).
    static func plain(_ url: URL) -> Endpoint<Probe> {
        Endpoint(request: URLRequest(url: url)) { _, _ in .success(Probe()) }
    }

    /// A mock answering `GET /probe` with `{}`.
    static func mock(delay: Duration = .zero) -> MockTransport {
        let mock = MockTransport(delay: delay)
        mock.register(.get, "/probe", .json("{}"))
        return mock
    }

    static let mockURL = URL(string: "https://api.example.com/probe")

    /// The probe tells: run on the main actor, it reports that it held it up.
    @MainActor @Test func theProbeSeesTheMainActorHeldUp() {
        #expect(Recorder.holdsUpTheMainActor(within: 1))
    }

    // MARK: Decoding never on the main actor, entry by entry

    @MainActor @Test func asyncLoadOnAMockFromTheMainActorParsesOffIt() async throws {
        let (recorder, url) = (Recorder(), try #require(Self.mockURL))
        _ = try await Self.mock().load(Self.probe(url, recorder))
        #expect(recorder.onMain == [false])
    }

    @MainActor @Test func callbackLoadFromTheMainActorParsesAndCallsBackOffIt() async throws {
        let (recorder, url) = (Recorder(), try #require(Self.mockURL))
        let callbackOnMain = await withCheckedContinuation { continuation in
            Self.mock().load(Self.probe(url, recorder)) { _ in
                continuation.resume(returning: Recorder.holdsUpTheMainActor())
            }
        }
        #expect(recorder.onMain == [false])
        #expect(!callbackOnMain)
    }

    @MainActor @Test func tinyAPIClientAndMockClientDecodeOffTheMainActor() async throws {
        struct Probed: TinyAPIEndpoint {
            var baseURL: String { "https://api.example.com" }
            var path: String { "/probe" }
            var method: HTTPMethod { .get }
        }
        let recorder = Recorder()
        _ = try await TinyAPIClient(transport: Self.mock(), decoder: recorder.decoder).request(Probed(), as: Probe.self)
        _ = try await MockTinyAPIClient(transport: Self.mock(), decoder: recorder.decoder)
            .request(Probed(), as: Probe.self)
        #expect(recorder.onMain == [false, false])
    }

    @MainActor @Test func statefulEndpointAndEndpointLoadingDecodeOffTheMainActor() async throws {
        let (recorder, url) = (Recorder(), try #require(Self.mockURL))
        let stateful = StatefulEndpoint(endpoint: Self.probe(url, recorder), transport: Self.mock())
        stateful.load()
        for await state in stateful.states where state.isSuccess || state.error != nil { break }

        final class Controller: EndpointLoading {
            let defaults: EndpointLoadingDefaults
            init(_ transport: any HTTPTransport) { defaults = EndpointLoadingDefaults(transport: transport) }
            var endpointLoadingDefaults: EndpointLoadingDefaults { defaults }
        }
        let controller = Controller(Self.mock())
        let loaded = await withCheckedContinuation { continuation in
            controller.load(
                endpoint: Self.probe(url, recorder), onError: { _ in continuation.resume(returning: false) },
                onSuccess: { _ in continuation.resume(returning: true) })
        }
        #expect(loaded)
        let observed = StatefulEndpoint(endpoint: Self.probe(url, recorder), transport: Self.mock())
        let token = controller.observe(endpoint: observed) { _ in }
        for await state in observed.states where state.isSuccess || state.error != nil { break }
        token.cancel()
        #expect(recorder.onMain == [false, false, false])
    }

    @MainActor @Test func endpointCacheCalledFromTheMainActorDecodesOffIt() async throws {
        let (recorder, url) = (Recorder(), try #require(Self.mockURL))
        let cache = EndpointCache(endpoint: Self.probe(url, recorder), transport: Self.mock())
        _ = try await cache.value()
        #expect(recorder.onMain == [false])
    }

    @MainActor @Test func storedResponseIsDecodedOffTheMainActor() async throws {
        let (recorder, url) = (Recorder(), try #require(Self.mockURL))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("iso-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileResponseStore(directory: directory)
        let first = StatefulEndpoint(endpoint: Self.probe(url, recorder), transport: Self.mock(), store: store)
        first.load()
        for await state in first.states where state.isSuccess || state.error != nil { break }
        // A new instance restores the stored body (decoding it) before its own load.
        let second = StatefulEndpoint(endpoint: Self.probe(url, recorder), transport: Self.mock(), store: store)
        second.load()
        var successes = 0  // the stored value offered, then the load's answer
        for await state in second.states where state.isSuccess || state.error != nil {
            successes += 1
            if successes == 2 || state.error != nil { break }
        }
        #expect(recorder.onMain.count == 3)
        #expect(!recorder.onMain.contains(true))
    }

    struct ProbeFeature: Feature {
        struct State: Sendable {
            var transport: any HTTPTransport = MockTransport()
            var endpoint: Endpoint<Probe>?
            var loaded = 0
        }
        enum Action: Sendable { case load, loaded }
        static var initialState: State { State() }
        static func reducer(state: inout State, action: Action) throws {
            if case .loaded = action { state.loaded += 1 }
        }
        static func effect(for action: Action, state: State) -> Effect<Action> {
            guard case .load = action, let endpoint = state.endpoint else { return .none }
            return .run { [transport = state.transport] in
                _ = try await transport.load(endpoint)
                return .loaded
            }
        }
    }

    @MainActor @Test func storeEffectDecodesOffTheMainActor() async throws {
        let (recorder, url) = (Recorder(), try #require(Self.mockURL))
        let store = Store<ProbeFeature>(
            initialState: .init(transport: Self.mock(), endpoint: Self.probe(url, recorder)))
        await store.send(.load).finish()
        #expect(store.state.loaded == 1)
        #expect(recorder.onMain == [false])
    }

    @MainActor @Test func everyURLSessionEntryParsesOffTheMainActor() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let recorder = Recorder()
        let endpoint = Self.probe(server.url("/echo"), recorder)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        _ = try await session.load(endpoint)
        _ = try await URLSessionTransport().load(endpoint)
        let callbacks = await withCheckedContinuation { continuation in
            session.load(endpoint) { _ in
                let first = Recorder.holdsUpTheMainActor()
                session.dataTask(endpoint: endpoint) { _ in
                    continuation.resume(returning: [first, Recorder.holdsUpTheMainActor()])
                }.resume()
            }
        }
        #expect(callbacks == [false, false])
        #expect(recorder.onMain == [false, false, false, false])
    }

    // MARK: Cancellation at random points, many at once

    /// What one load ended with: its value, the transport's cancellation, or anything else (a bug).
    enum Outcome: Sendable, Equatable {
        case value, cancelled
        case other(String)

        init(_ body: @Sendable () async throws -> Void) async {
            do {
                try await body()
                self = .value
            } catch let error as HTTPTransportError where error.code == .cancelled {
                self = .cancelled
            } catch is CancellationError {
                self = .cancelled
            } catch {
                self = .other("\(error)")
            }
        }
    }

    /// Runs `count` loads at once; every other one is cancelled after a random few hundred microseconds (before it
    /// starts, while it is sent, or after it ended). The outcomes, within a bound: a hang fails the test.
    static func race(
        _ count: Int = 200, _ load: @escaping @Sendable (Int) async throws -> Void
    ) async throws -> [Outcome] {
        try await bounded(seconds: 50) {
            await withTaskGroup(of: (Int, Outcome).self) { group in
                for index in 0..<count {
                    group.addTask {
                        let task = Task { await Outcome { try await load(index) } }
                        if index.isMultiple(of: 2) {
                            try? await Task.sleep(for: .microseconds(Int.random(in: 0...800)))
                            task.cancel()
                        }
                        return (index, await task.value)
                    }
                }
                var outcomes = [Outcome](repeating: .other("never ended"), count: count)
                for await (index, outcome) in group { outcomes[index] = outcome }
                return outcomes
            }
        }
    }

    @Test func twoHundredMockLoadsCancelledAtRandomEachEndOnce() async throws {
        let url = try #require(Self.mockURL)
        let mock = Self.mock(delay: .microseconds(300))
        let outcomes = try await Self.race { _ in _ = try await mock.load(Self.plain(url)) }
        #expect(outcomes.count == 200)
        #expect(outcomes.filter { $0 != .value && $0 != .cancelled }.isEmpty)
        #expect(outcomes.enumerated().allSatisfy { $0.offset.isMultiple(of: 2) || $0.element == .value })
    }

    @Test func twoHundredLiveLoadsCancelledAtRandomEachEndAsValueOrCancelled() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let transport = URLSessionTransport()
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let url = server.url("/slow?seconds=0.01")
        let outcomes = try await Self.race { index in
            let through: any HTTPTransport = index % 4 < 2 ? transport : session
            _ = try await through.load(Self.plain(url))
        }
        #expect(outcomes.filter { $0 != .value && $0 != .cancelled } == [])
        #expect(outcomes.enumerated().allSatisfy { $0.offset.isMultiple(of: 2) || $0.element == .value })
    }

    /// `URLSession.load(_:onComplete:)` and `HTTPTransport.load(_:onComplete:)`, their tasks cancelled at random:
    /// each `onComplete` is called exactly once.
    @Test func callbackLoadsCancelledAtRandomCompleteExactlyOnce() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let transport = URLSessionTransport()
        let url = server.url("/slow?seconds=0.01")
        let calls = Locked([Int: Int]())
        let outcomes = try await Self.race { index in
            let cancel = Locked<(@Sendable () -> Void)?>(nil)
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Result<Probe, any Error>, Never>) in
                    let onComplete: @Sendable (Result<Probe, any Error>) -> Void = { result in
                        let first = calls.withLock { calls in
                            calls[index, default: 0] += 1
                            return calls[index] == 1
                        }
                        if first { continuation.resume(returning: result) }
                    }
                    if index % 4 < 2 {
                        let task = session.load(Self.plain(url), onComplete: onComplete)
                        cancel.withLock { $0 = { task.cancel() } }
                    } else {
                        let task = transport.load(Self.plain(url), onComplete: onComplete)
                        cancel.withLock { $0 = { task.cancel() } }
                    }
                    if Task.isCancelled { cancel.withLock { $0 }?() }
                }
            } onCancel: {
                cancel.withLock { $0 }?()
            }
            _ = try result.get()
        }
        // Every callback has had its chance to come twice by now.
        try await Task.sleep(for: .milliseconds(100))
        #expect(calls.withLock { $0.values.filter { $0 != 1 } } == [])
        #expect(calls.withLock { $0.count } == 200)
        #expect(outcomes.filter { $0 != .value && $0 != .cancelled } == [])
    }

    /// `EndpointCache`: callers cancelled at random stop waiting; the one load goes on, sent once, and every caller
    /// that was not cancelled gets its value.
    @Test func endpointCacheCallersCancelledAtRandomDoNotCancelTheSharedLoad() async throws {
        let url = try #require(Self.mockURL)
        let mock = Self.mock(delay: .milliseconds(20))
        let cache = EndpointCache(endpoint: Self.plain(url), transport: mock)
        let outcomes = try await Self.race { _ in _ = try await cache.value() }
        #expect(outcomes.filter { $0 != .value && $0 != .cancelled } == [])
        #expect(outcomes.enumerated().allSatisfy { $0.offset.isMultiple(of: 2) || $0.element == .value })
        #expect(mock.requests.count == 1)
    }

    // MARK: State delivery under races

    /// Many tasks load, clear and load-if-needed one `StatefulEndpoint` at once: a closure observer and a `states`
    /// iteration see the same states, each once, in the same order, never `.loading` or `.idle` twice in a row; the
    /// last load's answer is the final state.
    @MainActor @Test func statefulEndpointObserversSeeOneOrderUnderRacingLoads() async throws {
        let url = try #require(Self.mockURL)
        let stateful = StatefulEndpoint(endpoint: Self.plain(url), transport: Self.mock(delay: .microseconds(200)))
        let stream = stateful.states  // from `.idle`, as the observer's first call
        var seen: [String] = []
        let token = stateful.observe { seen.append("\($0)") }
        let racers = (0..<200).map { index in
            Task {  // on the main actor, each after a random pause
                try? await Task.sleep(for: .microseconds(Int.random(in: 0...2000)))
                switch index % 5 {
                case 0: stateful.clear()
                case 1, 2: stateful.load()
                default: stateful.loadIfNeeded()
                }
            }
        }
        for racer in racers { await racer.value }
        stateful.load()
        for await state in stateful.states where state.isSuccess || state.error != nil { break }
        token.cancel()
        var streamed: [String] = []
        for await state in stream {
            streamed.append("\(state)")
            if streamed.count == seen.count { break }
        }
        #expect(streamed == seen)
        let repeats = zip(seen, seen.dropFirst()).filter { $0 == $1 && ($0 == "loading" || $0 == "idle") }
        #expect(repeats.isEmpty)
        #expect(seen.last?.hasPrefix("success") == true)
    }

    struct LogFeature: Feature {
        struct State: Sendable, Equatable { var log: [Int] = [] }
        enum Action: Sendable {
            case start(Int)
            case done(Int)
        }
        static var initialState: State { State() }
        static func reducer(state: inout State, action: Action) throws {
            switch action {
            case .start(let index): state.log.append(-index - 1)
            case .done(let index): state.log.append(index)
            }
        }
        static func effect(for action: Action, state: State) -> Effect<Action> {
            guard case .start(let index) = action else { return .none }
            return .run {
                try await Task.sleep(for: .microseconds(Int.random(in: 0...500)))
                return .done(index)
            }.cancellable(id: index % 7)
        }
    }

    /// 200 sends whose effects cancel one another by id and are cancelled at random: each observer gets every state
    /// once, in order (each one action longer than the one before), and the final state's log holds each start once
    /// and each `done` at most once, after its start.
    @MainActor @Test func storeObserversSeeEveryStateOnceInOrderUnderCancellation() async throws {
        let store = Store<LogFeature>()
        var seen: [[Int]] = []
        let observation = store.observe { seen.append($0.log) }
        let stream = store.states
        let senders = (0..<200).map { index in
            Task {  // on the main actor
                let task = store.send(.start(index))
                if index.isMultiple(of: 3) {
                    try? await Task.sleep(for: .microseconds(Int.random(in: 0...300)))
                    task.cancel()
                }
                return task
            }
        }
        for sender in senders { await sender.value.finish() }
        observation.cancel()
        var streamed: [[Int]] = []
        for await state in stream {
            streamed.append(state.log)
            if streamed.count == seen.count { break }
        }
        #expect(streamed == seen)
        #expect(seen.enumerated().allSatisfy { $0.element.count == $0.offset })
        let log = store.state.log
        #expect(Set(log.filter { $0 < 0 }).count == 200)
        let done = log.filter { $0 >= 0 }
        #expect(Set(done).count == done.count)
        #expect(done.allSatisfy { index in log.firstIndex(of: -index - 1) ?? .max < log.firstIndex(of: index) ?? -1 })
    }

    // MARK: No shared state between instances

    /// Two registries, two mock clients, two stores used at once keep to themselves.
    @MainActor @Test func registriesMocksAndStoresDoNotShareState() async throws {
        let url = try #require(Self.mockURL)
        let (first, second) = (Self.mock(), Self.mock())
        let (a, b) = (EndpointRegistry(transport: first), EndpointRegistry(transport: second))
        let endpoint = Endpoint<Probe>(request: URLRequest(url: url)) { _, _ in .success(Probe()) }
        #expect(a.statefulEndpoint(for: endpoint) !== b.statefulEndpoint(for: endpoint))
        a.statefulEndpoint(for: endpoint).load()
        let loaded = a.statefulEndpoint(for: endpoint)
        for await state in loaded.states where state.isSuccess || state.error != nil { break }
        #expect(first.requests.count == 1 && second.requests.isEmpty)
        #expect(b.statefulEndpoint(for: endpoint).state.isIdle)

        let (one, two) = (MockTinyAPIClient.testing, MockTinyAPIClient.testing)
        one.transport.register(.get, "/probe", .json("{}"))
        struct Probed: TinyAPIEndpoint {
            var baseURL: String { "https://api.example.com" }
            var path: String { "/probe" }
            var method: HTTPMethod { .get }
        }
        _ = try await one.request(Probed(), as: Probe.self)
        await #expect(throws: TinyAPIError.self) { try await two.request(Probed(), as: Probe.self) }
        #expect(one.transport.requests.count == 1 && two.transport.requests.count == 1)

        let (left, right) = (Store<LogFeature>(), Store<LogFeature>())
        await left.send(.start(1)).finish()
        #expect(left.state.log == [-2, 1] && right.state.log == [])
    }

    // MARK: A shared refresh, callers cancelled at random

    /// Answers `401` unless the request carries the credential `new`.
    struct Gatekeeper: HTTPTransport {
        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            try? await Task.sleep(for: .microseconds(200))
            let status = request.value(forHTTPHeaderField: "Authorization") == "new" ? 200 : 401
            guard let url = request.url,
                let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: nil)
            else { throw HTTPTransportError(.invalidRequest, request: request) }
            return (Data("{}".utf8), response)
        }
    }

    /// Hands out `old` until refreshed, then `new`; counts its refreshes.
    final class Provider: CredentialProvider {
        let state = Locked((token: "old", refreshes: 0))

        func credential() async throws -> String? { state.withLock { $0.token } }

        func refreshCredential(rejected: String?) async throws -> String {
            try? await Task.sleep(for: .milliseconds(5))
            return state.withLock { state in
                state.refreshes += 1
                state.token = "new"
                return state.token
            }
        }
    }

    /// 200 requests refused with the old credential, half of them cancelled at random: the one refresh goes on for the
    /// others, each of which then succeeds.
    @Test func authorizationRefreshSurvivesCallersCancelledAtRandom() async throws {
        let url = try #require(Self.mockURL)
        let provider = Provider()
        let transport = Gatekeeper().with(.authorization(provider))
        let outcomes = try await Self.race { _ in _ = try await transport.load(Self.plain(url)) }
        #expect(outcomes.filter { $0 != .value && $0 != .cancelled } == [])
        #expect(outcomes.enumerated().allSatisfy { $0.offset.isMultiple(of: 2) || $0.element == .value })
        #expect(provider.state.withLock { $0.refreshes } == 1)
    }

    // MARK: Streams end with their object

    /// `StatefulEndpoint.states` and `Store.states` end when the object is released, and when the iterating task is
    /// cancelled: no iteration hangs.
    @MainActor @Test func stateStreamsEndWithTheirObjectOrTheirTask() async throws {
        let url = try #require(Self.mockURL)
        let endpointStates: AsyncStream<RequestState<Probe>>
        let storeStates: AsyncStream<LogFeature.State>
        do {  // released at the end of this block
            let stateful = StatefulEndpoint(endpoint: Self.plain(url), transport: Self.mock())
            let store = Store<LogFeature>()
            (endpointStates, storeStates) = (stateful.states, store.states)
        }
        let endpointIteration = Task { () -> Int in
            var count = 0
            for await _ in endpointStates { count += 1 }
            return count
        }
        let storeIteration = Task { () -> Int in
            var count = 0
            for await _ in storeStates { count += 1 }
            return count
        }
        #expect(await endpointIteration.value == 1)
        #expect(await storeIteration.value == 1)

        let kept = Store<LogFeature>()
        let cancelled = Task { for await _ in kept.states {} }
        await Task.yield()
        cancelled.cancel()
        await cancelled.value
        kept.send(.start(0)).cancel()
    }
}
