import Foundation
import Observation
import TinyKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private let mockURL = URL(string: "http://mock.invalid/users") ?? URL(fileURLWithPath: "/users")

/// A mock answering `GET /users` with a ~1 KB array of users, after `delay`.
private func usersMock(delay: MockDelay = .zero) throws -> MockTransport {
    let mock = MockTransport(delay: delay)
    mock.register(.get, "/users", try .json(User.list(count: 11)))
    return mock
}

/// What a test suite pays per request through the mock transport, in memory and without delay.
func mockBenchmarks(_ options: Options) async throws {
    let requests = options.int("mock-requests", default: 50_000)
    let timeLimit = options.seconds("time-limit", default: 10)
    let body = try JSONEncoder().encode(User.list(count: 11))
    let decoder = JSONDecoder()
    let decoding = try bounded(count: requests, timeLimit: timeLimit) {
        blackHole(try decoder.decode([User].self, from: body))
    }
    row("mock transport", "JSONDecoder alone, ~1 KB [User]", "\(format(decoding.perSecond)) /s", note: "the floor")

    let request = URLRequest(method: .get, url: mockURL)
    let endpoint = Endpoint<[User]>(json: .get, url: mockURL)
    let cases: [(String, @Sendable (MockTransport) -> @Sendable () async throws -> Void)] = [
        ("MockTransport.send", { mock in { blackHole(try await mock.send(request)) } }),
        ("Endpoint load through the mock", { mock in { blackHole(try await mock.load(endpoint)) } }),
        (
            "TinyAPIClient.request through the mock",
            { mock in
                let client = TinyAPIClient(transport: mock)
                let api = UsersAPI(url: mockURL)
                return { blackHole(try await client.request(api, as: [User].self)) }
            }
        ),
    ]
    for (name, makeBody) in cases {
        let mock = try usersMock()  // a new one each time: the mock records every request
        let run = try await bounded(count: requests, bodies: [makeBody(mock)], timeLimit: timeLimit)
        guard mock.requests.count == run.count else { fail("the mock recorded \(mock.requests.count) requests") }
        row(
            "mock transport", name, "\(format(run.perSecond)) req/s",
            note: "\(format(run.nanosecondsEach / 1000, 1)) µs each, \(run.count) requests")
    }
}

/// A transport whose requests never finish, cancelled or not (their tasks stay suspended until the process ends).
private struct NeverAnswering: HTTPTransport {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
        throw CancellationError()
    }
}

/// The owner of an observation (a screen, in an app).
private final class Owner: Sendable {}

/// Fan-out of state changes to synchronous observers, against calling the same closures from a plain array; and
/// 1,000 concurrent `loadIfNeeded()`.
func statefulBenchmarks(_ options: Options) async throws {
    let budget = options.int("fanout-calls", default: 2_000_000)
    let timeLimit = options.seconds("time-limit", default: 10)
    let endpoint = Endpoint<[User]>(json: .get, url: mockURL)
    // Each change is a load() or a clear() on this thread; the load never answers, so no other thread changes the
    // state (and delivers) meanwhile.
    func nanosecondsPerChange(observers: Int, changes: Int) throws -> Double {
        let stateful = StatefulEndpoint(endpoint: endpoint, transport: NeverAnswering())
        let calls = Counter()
        let owners = (0..<observers).map { _ in Owner() }
        for owner in owners {
            stateful.observeSynchronously(owner: owner, observeCurrent: false) { _ in calls.increment() }
        }
        stateful.load()
        let before = calls.value
        let run = bounded(count: changes, timeLimit: timeLimit) {
            if case .loading = stateful.state { stateful.clear() } else { stateful.load() }
        }
        withExtendedLifetime(owners) {}  // observations end with their owners
        guard calls.value - before == observers * run.count else {
            fail("observers got \(calls.value - before) calls, expected \(observers * run.count)")
        }
        stateful.clear()
        return run.nanosecondsEach
    }
    // Interleaved repetitions; the fastest of each is the least disturbed by other processes.
    let repetitions = options.int("repetitions", default: 5)
    for observers in [1, 100, 10_000] {
        let changes = min(4_000, max(20, budget / observers))
        var (alone, observed, plain) = ([Double](), [Double](), [Double]())
        for _ in 0..<max(repetitions, 1) {
            alone.append(try nanosecondsPerChange(observers: 0, changes: changes))
            observed.append(try nanosecondsPerChange(observers: observers, changes: changes))
            plain.append(plainClosureNanoseconds(closures: observers, calls: changes, timeLimit: timeLimit))
        }
        let (perChange, base, perClosure) = (observed.min() ?? .nan, alone.min() ?? .nan, plain.min() ?? .nan)
        let perObserver = (perChange - base) / Double(observers)
        row(
            "StatefulEndpoint fan-out", "\(observers) synchronous observer(s)",
            "\(format(perObserver, 1)) ns per observer", ratio: "\(format(perObserver / perClosure, 1))× plain closure",
            note: "\(format(perChange / 1000, 2)) µs per change (\(format(base / 1000, 2)) µs with no observer); "
                + "plain array \(format(perClosure, 1)) ns per closure; \(changes) changes, best of \(repetitions)")
    }

    // The same with main-actor observers (`observe(owner:)`, what screens use): the changes, then the wait until
    // the main actor has delivered all of them.
    for observers in [1, 100, 10_000] {
        let changes = min(4_000, max(20, budget / observers))
        var (alone, observed) = ([Double](), [Double]())
        for _ in 0..<max(repetitions, 1) {
            alone.append(await mainActorNanosecondsPerChange(observers: 0, changes: changes, timeLimit: timeLimit))
            observed.append(
                await mainActorNanosecondsPerChange(observers: observers, changes: changes, timeLimit: timeLimit))
        }
        let (perChange, base) = (observed.min() ?? .nan, alone.min() ?? .nan)
        let perObserver = (perChange - base) / Double(observers)
        let plain = plainClosureNanoseconds(closures: observers, calls: changes, timeLimit: timeLimit)
        row(
            "StatefulEndpoint fan-out", "\(observers) main-actor observer(s)",
            "\(format(perObserver, 1)) ns per observer", ratio: "\(format(perObserver / plain, 1))× plain closure",
            note: "\(format(perChange / 1000, 2)) µs per change (\(format(base / 1000, 2)) µs with no observer); "
                + "\(changes) changes, best of \(repetitions)")
    }

    let callers = options.int("callers", default: 1_000)
    let mock = try usersMock(delay: .milliseconds(200))
    let shared = StatefulEndpoint(endpoint: endpoint, transport: mock)
    let start = now()
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<callers { group.addTask { shared.loadIfNeeded() } }
    }
    let callTime = Double(now() - start)
    let emptyStart = now()
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<callers { group.addTask { blackHole(shared) } }
    }
    let emptyTime = Double(now() - emptyStart)
    for await state in shared.states {
        if case .success = state { break }
        if case .failure(let error) = state { fail("loadIfNeeded failed: \(error)") }
    }
    row(
        "StatefulEndpoint", "\(callers) concurrent loadIfNeeded()", "\(mock.requests.count) transport call(s)",
        ratio: "\(format(callTime / emptyTime, 2))× as many empty tasks",
        note: "\(format(callTime / 1000)) µs for all (tasks included), \(format(callTime / Double(callers))) ns each")
    guard mock.requests.count == 1 else { fail("\(callers) loadIfNeeded() made \(mock.requests.count) requests") }
}

/// Time per state change with `observers` main-actor observers, until every change is delivered.
@MainActor
private func mainActorNanosecondsPerChange(observers: Int, changes: Int, timeLimit: Double) async -> Double {
    let stateful = StatefulEndpoint(endpoint: Endpoint<[User]>(json: .get, url: mockURL), transport: NeverAnswering())
    let calls = Counter()
    let owners = (0..<observers).map { _ in Owner() }
    for owner in owners {
        stateful.observe(owner: owner, observeCurrent: false) { _ in calls.increment() }
    }
    stateful.load()
    await stateful.waitForDeliveries()
    let before = calls.value
    let start = now()
    let run = bounded(count: changes, timeLimit: timeLimit) {
        if case .loading = stateful.state { stateful.clear() } else { stateful.load() }
    }
    await stateful.waitForDeliveries()
    let elapsed = Double(now() - start)
    withExtendedLifetime(owners) {}
    guard calls.value - before == observers * run.count else {
        fail("main-actor observers got \(calls.value - before) calls, expected \(observers * run.count)")
    }
    stateful.clear()
    return elapsed / Double(run.count)
}

/// Calls the same kind of closure an observer is, from a plain array: the fan-out's baseline, in ns per call.
private func plainClosureNanoseconds(closures count: Int, calls: Int, timeLimit: Double) -> Double {
    let counter = Counter()
    let closures: [@Sendable (RequestState<[User]>) -> Void] = (0..<count).map { _ in { _ in counter.increment() } }
    let run = bounded(count: calls, timeLimit: timeLimit) {
        let state: RequestState<[User]> = counter.value.isMultiple(of: 2) ? .loading : .idle
        for closure in closures { closure(state) }
    }
    blackHole(counter.value)
    return run.nanosecondsEach / Double(count)
}

/// A feature whose reducer only counts, and which says it has no effect (`.none`): `send` starts no task.
private enum TrivialFeature: Feature {
    struct State: Sendable, Equatable { var count = 0 }
    enum Action: Sendable, Equatable { case increment }
    static var initialState: State { State() }
    static func reducer(state: inout State, action: Action) throws { state.count += 1 }
    static func effect(for action: Action, state: State) -> Effect<Action> { .none }
}

/// The same in the seeds' shape, which declares no effect: the default `async` effect returns `nil`, but the store
/// cannot know that without running it, so every `send` starts a task.
private enum SeedShapedFeature: Feature {
    struct State: Sendable, Equatable { var count = 0 }
    enum Action: Sendable, Equatable { case increment }
    static var initialState: State { State() }
    static func reducer(state: inout State, action: Action) throws { state.count += 1 }
}

/// The floor for observable state: the trivial reducer's mutation, made through a method of a plain `@Observable`
/// class (not inlined, as `Store.send` is a call too).
@MainActor @Observable
private final class PlainObservableCounter {
    var count = 0
    @inline(never) func increment() { count += 1 }
}

/// A feature whose `ping` effect sends `pong` back.
private enum RoundTripFeature: Feature {
    struct State: Sendable, Equatable { var pongs = 0 }
    enum Action: Sendable, Equatable {
        case ping
        case pong
    }
    static var initialState: State { State() }
    static func reducer(state: inout State, action: Action) throws { if action == .pong { state.pongs += 1 } }
    static func effect(for action: Action, state: State) async throws -> Action? { action == .ping ? .pong : nil }
}

@inline(never)
private func reduceDirectly(_ state: inout TrivialFeature.State) {
    do {
        try TrivialFeature.reducer(state: &state, action: .increment)
    } catch {
        fail("the reducer threw \(error)")
    }
}

/// `Store.send` with a trivial reducer against the same mutation through a method of a plain `@Observable` class (the
/// floor for observable state) and against calling the reducer directly; and an effect round trip.
@MainActor
func storeBenchmarks(_ options: Options) async {
    let sends = options.int("sends", default: 100_000)
    let timeLimit = options.seconds("time-limit", default: 10)
    let repetitions = options.int("repetitions", default: 5)
    var state = TrivialFeature.initialState
    var directChunks: [Double] = []
    for _ in 0..<max(sends / 1_000, 1) {
        directChunks.append(bounded(count: 10_000, timeLimit: timeLimit) { reduceDirectly(&state) }.nanosecondsEach)
    }
    blackHole(state)
    let direct = median(directChunks)

    // Calls in batches of 100, timed; between batches (not timed) the tasks the last call started finish. Each case
    // makes `sends` calls in all, in interleaved rounds; the result is the median batch.
    let deadline = now() + UInt64(timeLimit * 1e9)
    let counter = PlainObservableCounter()
    let store = Store<TrivialFeature>()
    let seedShaped = Store<SeedShapedFeature>()
    let cases: [@MainActor () -> StoreTask?] = [
        {
            counter.increment()
            return nil
        },
        { store.send(.increment) },
        { seedShaped.send(.increment) },
    ]
    var batches = cases.map { _ in [Double]() }
    var rounds = 0
    while rounds < max(repetitions, 1), now() < deadline {
        for (index, call) in cases.enumerated() {
            for _ in 0..<max(sends / 100 / max(repetitions, 1), 1) {
                let start = now()
                var last: StoreTask?
                for _ in 0..<100 { last = call() }
                batches[index].append(Double(now() - start) / 100)
                await last?.finish()
            }
        }
        rounds += 1
    }
    let calls = batches.map { $0.count * 100 }
    guard counter.count == calls[0], store.state.count == calls[1], seedShaped.state.count == calls[2] else {
        fail("counted \(counter.count), \(store.state.count), \(seedShaped.state.count) of \(calls) calls")
    }
    let (floor, perSend, perSeedSend) = (median(batches[0]), median(batches[1]), median(batches[2]))
    let batchNote = "medians of \(batches[1].count) batches of 100 calls, in \(rounds) interleaved rounds"
    row(
        "Store", "baseline: the same mutation through a method of a plain @Observable class",
        "\(format(floor, 1)) ns per call", note: "the floor for observable state; \(batchNote)")
    row(
        "Store", "send(.increment), trivial reducer, effect .none", "\(format(perSend, 1)) ns per send",
        ratio: "\(format(perSend / floor, 2))× @Observable baseline",
        note: "\(format(perSend / direct, 1))× a direct reducer call (\(format(direct, 1)) ns); no task")
    row(
        "Store", "send(.increment), trivial reducer, seeds' shape (no effect declared)",
        "\(format(perSeedSend, 1)) ns per send", ratio: "\(format(perSeedSend / floor, 2))× @Observable baseline",
        note: "a task per send, for the async effect that returns nil")

    let roundTrips = options.int("round-trips", default: 10_000)
    let pingStore = Store<RoundTripFeature>()
    var trips = 0
    let tripStart = now()
    while trips < roundTrips, now() < deadline + UInt64(timeLimit * 1e9) {
        await pingStore.send(.ping).finish()
        trips += 1
    }
    let perTrip = Double(now() - tripStart) / Double(max(trips, 1))
    guard pingStore.state.pongs == trips else { fail("the effect sent back \(pingStore.state.pongs) of \(trips)") }
    row(
        "Store", "effect round trip: send(.ping), effect returns .pong", "\(format(perTrip / 1000, 1)) µs each",
        note: "\(trips) round trips, awaited one at a time")
}
