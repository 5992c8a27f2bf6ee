import TinyStore

struct Rejected: Error, Equatable {}
struct Boom: Error, Equatable {}

/// Reports what an effect saw to the test, through the state (features are static, so this is the way in).
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct Probe: Sendable {
    let events: AsyncStream<String>
    let continuation: AsyncStream<String>.Continuation
    /// Opened by a test to end `LabFeature.Action.waitForGate`'s effect, without blocking a thread meanwhile.
    let gate: AsyncStream<Void>
    let opener: AsyncStream<Void>.Continuation

    init() {
        (events, continuation) = AsyncStream<String>.makeStream()
        (gate, opener) = AsyncStream<Void>.makeStream()
    }
}

/// A feature to exercise the store: rejected actions, failing effects, effects that wait until cancelled, chains.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct LabFeature: Feature {
    struct State: Sendable {
        var count = 0
        var log: [String] = []
        var probe: Probe?
    }

    enum Action: Sendable, Equatable {
        case increment
        case reject
        case fail
        case failed(String)
        case waitForever
        case startWaiting
        case waitForGate
        case relayAfterGate
        case relayReject
        case giveUp
        case reportIsolation
        case finishedWaiting
        case chain(Int)
        case add(Int)
        case added(Int)
    }

    static var initialState: State { State() }

    static func reducer(state: inout State, action: Action) throws {
        switch action {
        case .increment: state.count += 1
        case .reject:
            state.count += 100
            throw Rejected()
        case .fail, .waitForever, .startWaiting, .waitForGate, .relayAfterGate, .relayReject, .giveUp, .reportIsolation:
            break
        case .failed(let message): state.log.append(message)
        case .finishedWaiting: state.log.append("finished waiting")
        case .chain(let step): state.log.append("chain \(step)")
        case .add: state.log.append("add")
        case .added(let amount): state.count += amount
        }
    }

    static func effect(for action: Action, state: State) async throws -> Action? {
        switch action {
        case .fail:
            throw Boom()
        case .waitForever:
            do {
                state.probe?.continuation.yield("started")
                try await Task.sleep(for: .seconds(3600))
                return .finishedWaiting
            } catch {
                state.probe?.continuation.yield("cancelled")
                throw error
            }
        case .startWaiting:
            return .waitForever
        case .waitForGate:
            guard let probe = state.probe else { return nil }
            probe.continuation.yield("started")
            for await _ in probe.gate { break }
            return .finishedWaiting
        case .relayAfterGate:
            // Sends back an action whose own effect runs until cancelled, once the test opens the gate.
            guard let probe = state.probe else { return nil }
            for await _ in probe.gate { break }
            return .waitForever
        case .relayReject:
            return .reject
        case .giveUp:
            // A cancellation the effect ran into (a child task's, say) while its own task was not cancelled.
            throw CancellationError()
        case .reportIsolation:
            // The actor this effect runs on, as the runtime sees it: nil off every actor. An effect declared to run
            // on its caller's actor (nonisolated(nonsending)) or on the main actor would see the store's.
            let isolation = #isolation
            return .failed(isolation == nil ? "ran off the main actor" : "ran on \(String(describing: isolation))")
        case .chain(let step) where step < 3:
            await Task.yield()
            return .chain(step + 1)
        case .add(let amount):
            await Task.yield()
            return .added(amount)
        default:
            return nil
        }
    }
}

/// Search as you type, in the TCA shape: each query cancels the search in flight, leaving the screen cancels it, and
/// actions without work return `.none`.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct SearchFeature: Feature {
    struct State: Sendable, Equatable {
        var query = ""
        var results: [String] = []
    }

    enum Action: Sendable, Equatable {
        case queryChanged(String)
        case results([String])
        case disappeared
        case stopTimer
    }

    enum CancelID {
        case search
        case timer
    }

    static var initialState: State { State() }

    static func reducer(state: inout State, action: Action) throws {
        switch action {
        case .queryChanged(let query): state.query = query
        case .results(let results): state.results = results
        case .disappeared, .stopTimer: break
        }
    }

    static func effect(for action: Action, state: State) -> Effect<Action> {
        switch action {
        case .queryChanged(let query):
            return .run {
                // A one-letter query is slow: it waits until cancelled, then answers anyway, so a test sees that the
                // answer of a cancelled effect is dropped.
                if query.count < 2 { try? await Task.sleep(for: .seconds(3600)) }
                return .results([query])
            }
            .cancellable(id: CancelID.search)
        case .disappeared:
            return .cancel(id: CancelID.search)
        case .stopTimer:
            return .cancel(id: CancelID.timer)
        case .results:
            return .none
        }
    }
}

/// Effects the test ends one by one, in any order: `.start(n)`'s effect waits until gate `n` is opened, then sends
/// `.finished(n)` back.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
struct GatedFeature: Feature {
    /// One gate per effect, opened by the test.
    struct Gates: Sendable {
        let gates: [AsyncStream<Void>]
        let openers: [AsyncStream<Void>.Continuation]

        init(count: Int) {
            let streams = (0..<count).map { _ in AsyncStream<Void>.makeStream() }
            (gates, openers) = (streams.map(\.stream), streams.map(\.continuation))
        }

        func open(_ number: Int) { openers[number].yield() }
    }

    struct State: Sendable {
        var log: [String] = []
        var gates: Gates?
    }

    enum Action: Sendable, Equatable {
        case start(Int)
        case finished(Int)
    }

    static var initialState: State { State() }

    static func reducer(state: inout State, action: Action) throws {
        switch action {
        case .start(let number): state.log.append("start \(number)")
        case .finished(let number): state.log.append("finished \(number)")
        }
    }

    static func effect(for action: Action, state: State) -> Effect<Action> {
        switch action {
        case .start(let number):
            guard let gate = state.gates?.gates[number] else { return .none }
            return .run {
                for await _ in gate { break }
                return .finished(number)
            }
        case .finished:
            return .none
        }
    }
}
