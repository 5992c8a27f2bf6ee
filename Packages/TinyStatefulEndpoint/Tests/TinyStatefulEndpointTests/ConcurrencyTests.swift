import Foundation
import Testing
import TinyRequestState

@testable import TinyStatefulEndpoint

@Suite(.timeLimit(.minutes(1))) struct ConcurrencyTests {
    /// Many tasks observe, cancel, load, clear and iterate at once, hopping to the main actor; afterwards every
    /// observer's and every iterator's states must be one contiguous run of the states a first observer saw (nothing
    /// skipped, repeated or reordered), and that reference must never repeat a state.
    @Test func concurrentObserveCancelLoadClearAndIterationKeepEveryObserverInOrder() async {
        let transport = NumberingTransport()
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport)
        let referenceOwner = Owner()
        let reference = await MainActor.run {
            let reference = Received()
            endpoint.observe(owner: referenceOwner) { reference.states.append($0) }
            return reference
        }
        let iterators = await MainActor.run {
            (0..<20).map { _ in
                Task { [states = endpoint.states] in
                    var seen: [RequestState<String>] = []
                    for await state in states {
                        seen.append(state)
                        if state == .success("end") { break }
                    }
                    return seen
                }
            }
        }
        let observed = await withTaskGroup(of: Received?.self) { group in
            for worker in 0..<400 {
                group.addTask {
                    switch worker % 5 {
                    case 0, 1:
                        return await MainActor.run {
                            let (owner, box) = (Owner(), Received())
                            let token = endpoint.observe(owner: owner) { box.states.append($0) }
                            if worker % 2 == 0 { token.cancel() }
                            return box
                        }
                    case 2: await endpoint.load()
                    case 3: await endpoint.loadIfNeeded()
                    default: if worker % 20 == 4 { await endpoint.clear() } else { await endpoint.load() }
                    }
                    return nil
                }
            }
            return await group.reduce(into: [Received]()) { if let box = $1 { $0.append(box) } }
        }
        let last = await MainActor.run {
            endpoint.load()
            return endpoint.task
        }
        await last?.value
        let endState = await endpoint.state
        #expect(endState.isSuccess)

        let referenceStates = await MainActor.run { reference.states }
        #expect(referenceStates.last == endState)
        #expect(zip(referenceStates, referenceStates.dropFirst()).allSatisfy { $0 != $1 })
        for box in observed {
            let states = await MainActor.run { box.states }
            #expect(!states.isEmpty)
            #expect(isContiguousRun(states, of: referenceStates), "\(states)")
        }
        for iterator in iterators { iterator.cancel() }
        for iterator in iterators {
            let states = await iterator.value
            #expect(isContiguousRun(states, of: referenceStates), "\(states)")
        }
    }
}
