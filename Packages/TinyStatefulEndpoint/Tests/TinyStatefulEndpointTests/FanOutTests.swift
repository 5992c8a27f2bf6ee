import Foundation
import Testing
import TinyRequestState

@testable import TinyStatefulEndpoint

@Suite(.timeLimit(.minutes(1))) struct FanOutTests {
    @MainActor @Test func tenThousandObserversEachSeeEveryStateOnceInOrder() async {
        let clock = TestClock(opened: 0)
        let mock = numberedMock(clock)
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: mock)
        let owner = Owner()
        let received = (0..<10_000).map { _ in Received() }
        for box in received {
            endpoint.observe(owner: owner) { box.states.append($0) }
        }
        clock.open(2)
        await waitUntil(endpoint) { $0 == .success("v1") }
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v2") }
        endpoint.clear()

        let expected: [RequestState<String>] = [.idle, .loading, .success("v1"), .loading, .success("v2"), .idle]
        // The first observer's observe started the load; all later ones began with `.loading`.
        #expect(received[0].states == expected)
        let mismatches = received.dropFirst().filter { $0.states != Array(expected.dropFirst()) }
        #expect(mismatches.isEmpty)
        #expect(mock.requests.count == 2)
    }

    @MainActor @Test func ownersDeallocatedMidStreamAreDroppedAndNothingLeaks() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        var owners: [Owner?] = (0..<1_000).map { _ in Owner() }
        let weakOwners = owners.map { owner in { [weak owner] in owner } }
        var probes: [Owner?] = owners.map { _ in Owner() }
        let weakProbes = probes.map { probe in { [weak probe] in probe } }
        let received = owners.map { _ in Received() }
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v1") }
        for index in owners.indices {
            guard let owner = owners[index] else { continue }
            endpoint.observe(owner: owner) { [probe = probes[index], box = received[index]] in
                _ = probe
                box.states.append($0)
            }
        }
        probes = []
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v2") }
        for index in owners.indices where index.isMultiple(of: 2) { owners[index] = nil }
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v3") }

        #expect(endpoint.observers.filter { $0.owner != nil }.count == 500)
        for index in owners.indices {
            let dropped = index.isMultiple(of: 2)
            let expected: [RequestState<String>] =
                dropped
                ? [.success("v1"), .loading, .success("v2")]
                : [.success("v1"), .loading, .success("v2"), .loading, .success("v3")]
            #expect(received[index].states == expected, "observer \(index)")
            #expect((weakOwners[index]() == nil) == dropped, "owner \(index)")
            #expect((weakProbes[index]() == nil) == dropped, "closure of observer \(index)")
        }
    }

    @Test func manyConcurrentIteratorsEachGetEveryStateFromWhenTheyStart() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        let expected: [RequestState<String>] = [
            .idle, .loading, .success("v1"), .loading, .success("v2"), .loading, .success("v3"),
        ]
        let streams = await MainActor.run { (0..<100).map { _ in endpoint.states } }
        await withTaskGroup(of: [RequestState<String>].self) { group in
            for stream in streams {
                group.addTask {
                    var seen: [RequestState<String>] = []
                    for await state in stream {
                        seen.append(state)
                        if state == .success("v3") { break }
                    }
                    return seen
                }
            }
            for value in 1...3 {
                await endpoint.load()
                await waitUntil(endpoint) { $0 == .success("v\(value)") }
            }
            for await seen in group {
                #expect(seen == expected)
            }
        }
    }

    @Test func cancellingTheIteratingTaskEndsTheSequenceAndItsObservation() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        let stream = await endpoint.states
        let iterating = Task {
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        iterating.cancel()
        #expect(await iterating.value <= 1)
        await endpoint.load()  // the first change after the iteration ended drops its observation
        #expect(await MainActor.run { endpoint.observers.isEmpty })
    }

    @MainActor @Test func aSequenceNeverIteratedEndsItsObservationWhenReleased() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        _ = endpoint.states
        endpoint.load()
        #expect(endpoint.observers.isEmpty)
    }

    @MainActor @Test func deallocatingTheEndpointEndsItsSequences() async {
        var endpoint: StatefulEndpoint<String>? = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        var iterator = endpoint?.states.makeAsyncIterator()
        #expect(await iterator?.next() == .idle)
        endpoint = nil
        #expect(await iterator?.next() == nil)
    }
}
