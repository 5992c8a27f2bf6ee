import Foundation
import Testing
@_spi(TinyKit) import TinyHTTPTransport
import TinyKit
import TinyKitTestServer

/// Many tasks sharing one `StatefulEndpoint`, one `Store`, one `MockTransport`: nothing lost, nothing duplicated,
/// observers whose owners die mid-stream released. Bounded in count; no timing is asserted.
@Suite(.timeLimit(.minutes(1))) struct StressTests {
    /// Answers every request with the next number, `1`, `2`, …, after yielding once (so loads overlap).
    private final class CountingTransport: HTTPTransport, Sendable {
        private let count = Locked(0)

        var requests: Int { count.withLock { $0 } }

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            let number = count.withLock { count in
                count += 1
                return count
            }
            await Task.yield()
            try Task.checkCancellation()
            let url = try #require(request.url)
            let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil))
            return (Data("\(number)".utf8), response)
        }
    }

    private final class Owner: Sendable {}

    /// A weak reference, to check that something was released.
    private struct Weak<Object: AnyObject> {
        weak var object: Object?

        init(_ object: Object?) {
            self.object = object
        }
    }

    /// What the observers of the reload test saw, and the owners that die during it.
    @MainActor private final class Seen {
        var logs: [[RequestState<Int>]] = Array(repeating: [], count: 40)
        var doomed: [Owner] = []
        var dead = false
        var callsAfterDeath = 0
    }

    @Test func manyTasksJoiningOneLoadMakeOneRequest() async throws {
        let transport = CountingTransport()
        let url = try #require(URL(string: "https://api.example.com/count"))
        let endpoint = StatefulEndpoint(endpoint: Endpoint<Int>(json: .get, url: url), transport: transport)

        let values = try await bounded {
            await withTaskGroup(of: Int?.self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        await endpoint.loadIfNeeded()
                        for await state in await endpoint.states {
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

    /// Loads and clears from many tasks while half of the observers' owners die: every surviving observer sees an
    /// increasing series of successes, no state twice in a row, and the final value; the dead ones are not called.
    @MainActor @Test func reloadsFromManyTasksNeverDeliverStaleOrDuplicateStates() async throws {
        let transport = CountingTransport()
        let url = try #require(URL(string: "https://api.example.com/count"))
        let endpoint = StatefulEndpoint(endpoint: Endpoint<Int>(json: .get, url: url), transport: transport)
        let seen = Seen()
        var survivors: [Owner] = []
        for index in 0..<40 {
            let owner = Owner()
            endpoint.observe(owner: owner) { state in
                seen.logs[index].append(state)
                if seen.dead && index % 2 == 1 { seen.callsAfterDeath += 1 }
            }
            if index % 2 == 0 { survivors.append(owner) } else { seen.doomed.append(owner) }
        }

        try await bounded {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        if index % 10 == 0 { await endpoint.clear() } else { await endpoint.load() }
                        await Task.yield()
                    }
                }
                await Task.yield()
                await MainActor.run {  // the doomed owners die while the loads run
                    seen.doomed.removeAll()
                    seen.dead = true
                }
                await group.waitForAll()
            }
        }
        endpoint.load()
        let final = try await bounded {
            for await state in await endpoint.states {
                if case .success(let value) = state { return value }
            }
            return -1
        }

        #expect(seen.callsAfterDeath == 0)
        for (index, states) in seen.logs.enumerated() {
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
        var droppedCalls = 0
        var dropped: StoreObservation? = store.observe { _ in droppedCalls += 1 }
        let droppedReleased = Weak(dropped)

        let tasks = (0..<50).map { task in
            Task { @MainActor in
                for call in 0..<20 {
                    let action: Counter.Action = (task + call) % 2 == 0 ? .increment : .incrementLater
                    await store.send(action).finish()
                }
            }
        }
        await Task.yield()
        // An observation released while the actions run: gone at once, and never called again.
        dropped = nil
        #expect(droppedReleased.object == nil)
        let droppedCallsWhenReleased = droppedCalls
        try await bounded {
            for task in tasks { await task.value }
        }

        #expect(store.state.count == 1_000)
        #expect(observed.last == 1_000)
        #expect(observed == observed.sorted())
        #expect(droppedCalls == droppedCallsWhenReleased)
        withExtendedLifetime(kept) {}
    }
}
