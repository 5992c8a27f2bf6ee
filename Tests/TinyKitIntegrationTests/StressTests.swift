import Foundation
import Testing
import TinyKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Many tasks sharing one `StatefulEndpoint`, one `Store`, one `MockTransport`: nothing lost, nothing duplicated,
/// observers whose owners die mid-stream released. Bounded in count; no timing is asserted.
@Suite struct StressTests {
    /// Answers every request with the next number, `1`, `2`, …, after yielding once (so loads overlap).
    private final class CountingTransport: HTTPTransport, @unchecked Sendable {
        // @unchecked Sendable: `count` is only read and written while holding `lock`.
        private let lock = NSLock()
        private var count = 0

        private func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            count += 1
            return count
        }

        var requests: Int {
            lock.lock()
            defer { lock.unlock() }
            return count
        }

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            let number = next()
            await Task.yield()
            try Task.checkCancellation()
            let url = try #require(request.url)
            let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil))
            return (Data("\(number)".utf8), response)
        }
    }

    /// What one synchronous observer saw, in order.
    private final class Log: @unchecked Sendable {
        // @unchecked Sendable: `states` is only read and written while holding `lock`.
        private let lock = NSLock()
        private var states: [RequestState<Int>] = []

        func append(_ state: RequestState<Int>) {
            lock.lock()
            states.append(state)
            lock.unlock()
        }

        var all: [RequestState<Int>] {
            lock.lock()
            defer { lock.unlock() }
            return states
        }
    }

    private final class Owner: Sendable {}

    /// Owners that a task releases while the states change.
    private final class Doomed: @unchecked Sendable {
        // @unchecked Sendable: `owners` is only read and written while holding `lock`.
        private let lock = NSLock()
        private var owners: [Owner] = []

        func keep(_ owner: Owner) {
            lock.lock()
            owners.append(owner)
            lock.unlock()
        }

        func releaseAll() {
            lock.lock()
            owners.removeAll()
            lock.unlock()
        }
    }

    @Test func manyTasksJoiningOneLoadMakeOneRequest() async throws {
        let transport = CountingTransport()
        let url = try #require(URL(string: "https://api.example.com/count"))
        let endpoint = StatefulEndpoint(endpoint: Endpoint<Int>(json: .get, url: url), transport: transport)

        let values = try await bounded {
            await withTaskGroup(of: Int?.self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        endpoint.loadIfNeeded()
                        for await state in endpoint.states {
                            if case .success(let value) = state { return value }
                        }
                        return nil
                    }
                }
                return await group.reduce(into: [Int?]()) { $0.append($1) }
            }
        }

        #expect(values.count == 200)
        #expect(Set(values) == [1])
        #expect(transport.requests == 1)
    }

    @Test func reloadsFromManyTasksNeverDeliverStaleOrDuplicateStates() async throws {
        let transport = CountingTransport()
        let url = try #require(URL(string: "https://api.example.com/count"))
        let endpoint = StatefulEndpoint(endpoint: Endpoint<Int>(json: .get, url: url), transport: transport)
        var survivors: [Owner] = []
        var logs: [Log] = []
        let doomed = Doomed()
        for index in 0..<40 {
            let owner = Owner()
            let log = Log()
            endpoint.observeSynchronously(owner: owner) { log.append($0) }
            logs.append(log)
            if index % 2 == 0 { survivors.append(owner) } else { doomed.keep(owner) }
        }

        try await bounded {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        if index % 10 == 0 { endpoint.clear() } else { endpoint.reload() }
                        await Task.yield()
                    }
                    // The doomed owners die while the reloads run.
                    if index == 50 { group.addTask { doomed.releaseAll() } }
                }
            }
        }
        endpoint.reload()
        let final = try await bounded {
            for await state in endpoint.states {
                if case .success(let value) = state { return value }
            }
            return -1
        }

        #expect(endpoint.observerCount == survivors.count)
        for (index, log) in logs.enumerated() {
            let states = log.all
            let successes = states.compactMap { state -> Int? in
                if case .success(let value) = state { return value }
                return nil
            }
            // A stale answer never overwrites a newer one, and no state is delivered twice in a row.
            #expect(successes == successes.sorted() && Set(successes).count == successes.count, "observer \(index)")
            #expect(zip(states, states.dropFirst()).allSatisfy { $0 != $1 }, "observer \(index): \(states)")
            if index % 2 == 0 { #expect(states.last == .success(final), "observer \(index)") }
        }
        #expect(final <= transport.requests)
        withExtendedLifetime(survivors) {}
    }

    @Test func oneMockTransportSharedByManyTasksAnswersAndRecordsEveryRequest() async throws {
        let mock = MockTransport()
        for route in 0..<16 {
            mock.register(.get, "/items/\(route)", .json(#"{"route":\#(route)}"#))
        }
        struct Answer: Decodable, Sendable { var route: Int }
        let tasks = 32
        let perTask = 25

        let wrong = try await bounded {
            await withTaskGroup(of: Int.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        var wrong = 0
                        for call in 0..<perTask {
                            let route = (task + call) % 16
                            let url = URL(string: "https://api.example.com/items/\(route)?task=\(task)&call=\(call)")!
                            let answer = try? await mock.load(Endpoint<Answer>(json: .get, url: url))
                            if answer?.route != route { wrong += 1 }
                        }
                        return wrong
                    }
                }
                return await group.reduce(0, +)
            }
        }

        #expect(wrong == 0)
        let recorded = mock.requests.compactMap { $0.url?.query }
        #expect(recorded.count == tasks * perTask)
        #expect(Set(recorded).count == tasks * perTask)
    }

    private struct Counter: Feature {
        struct State: Sendable, Equatable { var count = 0 }
        enum Action: Sendable, Equatable { case increment, incrementLater }
        static var initialState: State { State() }
        static func reducer(state: inout State, action: Action) throws {
            if action == .increment { state.count += 1 }
        }
        static func effect(for action: Action, state: State) async throws -> Action? {
            action == .incrementLater ? .increment : nil
        }
    }

    @MainActor @Test func oneStoreTakesActionsFromManyTasks() async throws {
        let store = Store<Counter>()
        var observed: [Int] = []
        let kept = store.observe { observed.append($0.count) }
        var dropped: StoreObservation? = store.observe { _ in }

        let tasks = (0..<50).map { task in
            Task { @MainActor in
                for call in 0..<20 {
                    let action: Counter.Action = (task + call) % 2 == 0 ? .increment : .incrementLater
                    await store.send(action).finish()
                }
            }
        }
        await Task.yield()
        dropped = nil  // an observation released while the actions run
        try await bounded {
            for task in tasks { await task.value }
        }

        #expect(store.state.count == 1_000)
        #expect(observed.last == 1_000)
        #expect(observed == observed.sorted())
        #expect(dropped == nil)
        withExtendedLifetime(kept) {}
    }
}
