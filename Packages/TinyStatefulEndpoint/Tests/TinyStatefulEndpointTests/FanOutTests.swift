import Foundation
import Testing
import TinyRequestState

@testable import TinyStatefulEndpoint

/// What one observer received, on the main actor.
@MainActor final class Received {
    var states: [RequestState<String>] = []
}

/// Whether `part` appears in `whole` as a contiguous run: nothing skipped, nothing repeated, nothing reordered.
func isContiguousRun<T: Equatable>(_ part: [T], of whole: [T]) -> Bool {
    guard !part.isEmpty else { return true }
    guard part.count <= whole.count else { return false }
    return (0...(whole.count - part.count)).contains { start in whole[start..<(start + part.count)].elementsEqual(part)
    }
}

@Suite struct FanOutTests {
    @MainActor @Test func tenThousandObserversEachReceiveEveryStateInOrder() async {
        let gate = Gate()
        let transport = StubTransport { call, request in
            await gate.wait()
            return try await numberedResponses(call, request)
        }
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        let owner = Owner()
        let received = (0..<10_000).map { _ in Received() }
        for box in received {
            endpoint.observe(owner: owner) { box.states.append($0) }
        }
        await gate.open()
        await waitUntil(endpoint) { $0 == .success("v1") }
        endpoint.reload()
        await waitUntil(endpoint) { $0 == .success("v2") }
        endpoint.clear()
        await endpoint.waitForDeliveries()

        let expected: [RequestState<String>] = [.idle, .loading, .success("v1"), .loading, .success("v2"), .idle]
        // The first observer's observe started the load; all later ones began with `.loading`.
        #expect(received[0].states == expected)
        let mismatches = received.dropFirst().filter { $0.states != Array(expected.dropFirst()) }
        #expect(mismatches.isEmpty)
        #expect(await transport.callCount == 2)
    }

    @MainActor @Test func ownersDeallocatedMidStreamAreDroppedAndNothingLeaks() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: StubTransport(numberedResponses))
        var owners: [Owner?] = (0..<1_000).map { _ in Owner() }
        let weakOwners = owners.map { owner in { [weak owner] in owner } }
        var probes: [Owner?] = owners.map { _ in Owner() }
        let weakProbes = probes.map { probe in { [weak probe] in probe } }
        let received = owners.map { _ in Received() }
        endpoint.loadIfNeeded()
        await waitUntil(endpoint) { $0 == .success("v1") }
        for index in owners.indices {
            guard let owner = owners[index] else { continue }
            endpoint.observe(owner: owner, observeCurrent: false) { [probe = probes[index], box = received[index]] in
                _ = probe
                box.states.append($0)
            }
        }
        probes = []
        endpoint.reload()
        await waitUntil(endpoint) { $0 == .success("v2") }
        await endpoint.waitForDeliveries()
        for index in owners.indices where index.isMultiple(of: 2) { owners[index] = nil }
        endpoint.reload()
        await waitUntil(endpoint) { $0 == .success("v3") }
        await endpoint.waitForDeliveries()

        #expect(endpoint.observerCount == 500)
        for index in owners.indices {
            let dropped = index.isMultiple(of: 2)
            let expected: [RequestState<String>] =
                dropped ? [.loading, .success("v2")] : [.loading, .success("v2"), .loading, .success("v3")]
            #expect(received[index].states == expected, "observer \(index)")
            #expect((weakOwners[index]() == nil) == dropped, "owner \(index)")
            #expect((weakProbes[index]() == nil) == dropped, "closure of observer \(index)")
        }
    }

    @Test func manyConcurrentIteratorsEachGetEveryStateFromWhenTheyStart() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: StubTransport(numberedResponses))
        let started = CallRecorder()
        await withTaskGroup(of: [RequestState<String>].self) { group in
            for _ in 0..<100 {
                group.addTask {
                    var seen: [RequestState<String>] = []
                    var iterator = endpoint.states.makeAsyncIterator()
                    _ = await started.record()
                    while let state = await iterator.next() {
                        seen.append(state)
                        if state == .success("v3") { break }
                    }
                    return seen
                }
            }
            await started.wait(for: 100)
            for value in 1...3 {
                endpoint.load()
                await waitUntil(endpoint) { $0 == .success("v\(value)") }
            }
            let expected: [RequestState<String>] = [
                .idle, .loading, .success("v1"), .loading, .success("v2"), .loading, .success("v3"),
            ]
            for await seen in group {
                #expect(seen == expected)
            }
        }
    }

    @Test func cancellingTheIteratingTaskEndsTheSequence() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: StubTransport(numberedResponses))
        let subscribed = CallRecorder()
        let iterating = Task {
            var count = 0
            for await _ in endpoint.states {
                count += 1
                _ = await subscribed.record()
            }
            return count
        }
        await subscribed.wait(for: 1)
        iterating.cancel()
        #expect(await iterating.value == 1)
        #expect(endpoint.core.withLock { $0.streams.isEmpty })
    }

    @Test func deallocatingTheEndpointEndsItsSequences() async {
        var endpoint: StatefulEndpoint<String>? = StatefulEndpoint(
            endpoint: textEndpoint(), transport: StubTransport(numberedResponses))
        var iterator = endpoint?.states.makeAsyncIterator()
        #expect(await iterator?.next() == .idle)
        endpoint = nil
        #expect(await iterator?.next() == nil)
    }
}
