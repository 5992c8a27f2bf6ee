import Foundation
import Testing
import TinyRequestState

@testable import TinyStatefulEndpoint

@Suite struct ConcurrencyTests {
    /// Many tasks observe, remove, load, reload, clear and iterate at once; afterwards every observer's and every
    /// iterator's states must be one contiguous run of the states a first observer saw (nothing skipped, repeated or
    /// reordered), and that reference must never repeat a state.
    @Test func concurrentObserveRemoveLoadReloadAndIterationKeepEveryObserverInOrder() async {
        let ending = Collected<Bool>()
        let transport = StubTransport { call, request in
            (Data((ending.values.isEmpty ? "v\(call)" : "end").utf8), try .ok(request))
        }
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        let referenceOwner = Owner()
        let reference = await MainActor.run { Received() }
        await MainActor.run {
            _ = endpoint.observe(owner: referenceOwner) { reference.states.append($0) }
        }

        let iterators = (0..<20).map { _ in
            Task {
                var seen: [RequestState<String>] = []
                for await state in endpoint.states {
                    seen.append(state)
                    if state == .success("end") { break }
                }
                return seen
            }
        }
        let observed = Collected<Received>()
        let synchronouslyObserved = Collected<Collected<RequestState<String>>>()
        let (synchronousStates, forward) = forwardingObserver() as (AsyncStream<RequestState<String>>, _)
        endpoint.observeSynchronously(owner: referenceOwner, forward)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<400 {
                group.addTask {
                    switch worker % 6 {
                    case 0 where worker % 12 == 0:
                        let owner = Owner()
                        let box = Collected<RequestState<String>>()
                        synchronouslyObserved.append(box)
                        let token = endpoint.observeSynchronously(owner: owner) { box.append($0) }
                        endpoint.reload()
                        endpoint.removeObserver(token)
                    case 0, 1:
                        let owner = Owner()
                        let box = await MainActor.run { Received() }
                        observed.append(box)
                        let token = await MainActor.run { endpoint.observe(owner: owner) { box.states.append($0) } }
                        endpoint.loadIfNeeded()
                        if worker % 2 == 0 {
                            endpoint.removeObserver(token)
                        } else {
                            endpoint.removeObservers(owner: owner)
                        }
                    case 2: endpoint.reload()
                    case 3: endpoint.loadIfNeeded()
                    case 4: _ = endpoint.state
                    default: if worker % 30 == 5 { endpoint.clear() } else { endpoint.load() }
                    }
                }
            }
        }
        ending.append(true)
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("end") }
        await endpoint.waitForDeliveries()

        let referenceStates = await MainActor.run { reference.states }
        #expect(referenceStates.last == .success("end"))
        #expect(zip(referenceStates, referenceStates.dropFirst()).allSatisfy { $0 != $1 })
        for box in observed.values {
            let states = await MainActor.run { box.states }
            #expect(!states.isEmpty)
            #expect(isContiguousRun(states, of: referenceStates), "\(states)")
        }
        var synchronousReference: [RequestState<String>] = []
        for await state in synchronousStates {
            synchronousReference.append(state)
            if state == .success("end") { break }
        }
        #expect(isContiguousRun(synchronousReference, of: referenceStates), "\(synchronousReference)")
        // A synchronous observer removed before a busy thread got to its first delivery may have seen nothing.
        for box in synchronouslyObserved.values {
            #expect(isContiguousRun(box.values, of: referenceStates), "\(box.values)")
        }
        for iterator in iterators {
            let states = await iterator.value
            #expect(states.last == .success("end"))
            #expect(isContiguousRun(states, of: referenceStates), "\(states)")
        }
        #expect(endpoint.observerCount == 2)
    }
}
