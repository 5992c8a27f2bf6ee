import Foundation
import Observation
import TinyKit

private let mockURL = URL(string: "http://mock.invalid/users") ?? URL(fileURLWithPath: "/users")

/// A mock answering `GET /users` with a ~1 KB array of users, after `delay`.
private func usersMock(delay: Duration = .zero) throws -> MockTransport {
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

/// A transport whose requests never finish until they are cancelled.
private struct NeverAnswering: HTTPTransport {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await Task.sleep(for: .seconds(1_000_000))
        throw CancellationError()
    }
}

/// What observes a stateful endpoint in an app: a screen that renders each state.
@MainActor private final class Screen {
    var renders = 0
    func render(_ state: RequestState<[User]>) { renders &+= 1 }
}

/// The observer closure of the fan-out cases, the same on both sides: it captures its screen weakly.
@MainActor private func renderer(_ screen: Screen) -> @MainActor (RequestState<[User]>) -> Void {
    { [weak screen] state in screen?.render(state) }
}

/// Fan-out of state changes to observers (`observe(owner:)`, on the main actor, in order), against calling the same
/// closures from a plain array; and 1,000 concurrent `loadIfNeeded()`.
@MainActor
func statefulBenchmarks(_ options: Options) async throws {
    let budget = options.int("fanout-calls", default: 2_000_000)
    let timeLimit = options.seconds("time-limit", default: 10)
    let repetitions = options.int("repetitions", default: 5)
    let endpoint = Endpoint<[User]>(json: .get, url: mockURL)
    // Interleaved repetitions; the fastest of each is the least disturbed by other processes.
    for observers in [1, 100, 10_000] {
        let changes = min(20_000, max(20, budget / observers))
        var (measured, plain) = ([FanOut](), [Double]())
        for _ in 0..<max(repetitions, 1) {
            measured.append(fanOut(endpoint, observers: observers, changes: changes, timeLimit: timeLimit))
            try await Task.sleep(for: .milliseconds(20))  // the cancelled loads end
            plain.append(
                plainClosureNanoseconds(
                    closures: observers, calls: max(changes, budget / observers), timeLimit: timeLimit))
        }
        let perObserver = measured.map(\.perObserver).min() ?? .nan
        let perClosure = plain.min() ?? .nan
        row(
            "StatefulEndpoint fan-out", "\(observers) observer(s), `observe(owner:) { [weak screen] … }`",
            "\(format(perObserver, 1)) ns per observer", ratio: "\(format(perObserver / perClosure, 2))× plain closure",
            note: "a change with no observer takes \(format((measured.map(\.base).min() ?? .nan) / 1000, 2)) µs; "
                + "plain array of the same closures \(format(perClosure, 1)) ns per closure; interquartile means of "
                + "\(measured.first?.changes ?? 0) paired changes, best of \(repetitions)")
    }

    let callers = options.int("callers", default: 1_000)
    let mock = try usersMock(delay: .milliseconds(200))
    let shared = StatefulEndpoint(endpoint: endpoint, transport: mock)
    let start = now()
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<callers { group.addTask { await shared.loadIfNeeded() } }
    }
    let callTime = Double(now() - start)
    let emptyStart = now()
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<callers { group.addTask { @MainActor in blackHole(shared) } }
    }
    let emptyTime = Double(now() - emptyStart)
    for await state in shared.states {
        if case .success = state { break }
        if case .failure(let error) = state { fail("loadIfNeeded failed: \(error)") }
    }
    row(
        "StatefulEndpoint", "\(callers) concurrent loadIfNeeded()", "\(mock.requests.count) transport call(s)",
        ratio: "\(format(callTime / emptyTime, 2))× as many empty main-actor tasks",
        note: "\(format(callTime / 1000)) µs for all (tasks included), \(format(callTime / Double(callers))) ns each")
    guard mock.requests.count == 1 else { fail("\(callers) loadIfNeeded() made \(mock.requests.count) requests") }
}

/// What `observers` observers add to a state change, against a change with none.
private struct FanOut {
    /// The extra time per change, per observer (interquartile mean).
    var perObserver: Double
    /// The time of a change with no observer (interquartile mean).
    var base: Double
    /// How many pairs of changes were timed.
    var changes: Int
}

/// Times state changes in pairs: one of an endpoint with `observers` observers (each with a screen of its own), one
/// of an endpoint with none, in alternating order, so that both see the same conditions; the mean of the middle half
/// of the differences is what the observers cost (timer reads and outliers cancel out). Each change is a `load()` or a `clear()`; the loads never answer, so
/// nothing else changes the state meanwhile, and observers are called before the change returns.
@MainActor
private func fanOut(_ endpoint: Endpoint<[User]>, observers: Int, changes: Int, timeLimit: Double) -> FanOut {
    let alone = StatefulEndpoint(endpoint: endpoint, transport: NeverAnswering())
    let observed = StatefulEndpoint(endpoint: endpoint, transport: NeverAnswering())
    let screens = (0..<observers).map { _ in Screen() }
    for screen in screens { observed.observe(owner: screen, renderer(screen)) }  // the first one starts a load
    alone.load()
    func change(_ stateful: StatefulEndpoint<[User]>) {
        if case .loading = stateful.state { stateful.clear() } else { stateful.load() }
    }
    let before = screens.reduce(0) { $0 + $1.renders }
    var (differences, bases) = ([Double](), [Double]())
    differences.reserveCapacity(changes)
    bases.reserveCapacity(changes)
    let deadline = now() + UInt64(timeLimit * 1e9)
    for pair in 0..<changes {
        let (first, second) = pair.isMultiple(of: 2) ? (alone, observed) : (observed, alone)
        let start = now()
        change(first)
        let middle = now()
        change(second)
        let end = now()
        let (withNone, withObservers) =
            pair.isMultiple(of: 2) ? (middle - start, end - middle) : (end - middle, middle - start)
        differences.append(Double(withObservers) - Double(withNone))
        bases.append(Double(withNone))
        if pair.isMultiple(of: 64), now() > deadline { break }
    }
    let renders = screens.reduce(0) { $0 + $1.renders } - before
    guard renders == observers * differences.count else {
        fail("observers rendered \(renders) states, expected \(observers * differences.count)")
    }
    alone.clear()
    observed.clear()
    return FanOut(
        perObserver: interquartileMean(differences) / Double(observers), base: interquartileMean(bases),
        changes: differences.count)
}

/// The mean of the middle half of `values`: robust to outliers, and finer than a median of whole nanoseconds.
private func interquartileMean(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted[(sorted.count / 4)..<max(sorted.count * 3 / 4, sorted.count / 4 + 1)]
    return middle.reduce(0, +) / Double(middle.count)
}

/// Calls the same closures an observer is given from a plain array, each with its own screen: the fan-out's
/// baseline, in ns per closure call.
@MainActor
private func plainClosureNanoseconds(closures count: Int, calls: Int, timeLimit: Double) -> Double {
    let screens = (0..<count).map { _ in Screen() }
    let closures = screens.map(renderer)
    var state: RequestState<[User]> = .idle
    let run = bounded(count: calls, timeLimit: timeLimit) {
        state = state.isLoading ? .idle : .loading
        for closure in closures { closure(state) }
    }
    let renders = screens.reduce(0) { $0 + $1.renders }
    guard renders == count * run.count else { fail("the plain closures rendered \(renders) states") }
    return run.nanosecondsEach / Double(count)
}

/// A feature whose reducer only counts, and which says it has no effect (`.none`): `send` starts no task.
enum TrivialFeature: Feature {
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
final class PlainObservableCounter {
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
