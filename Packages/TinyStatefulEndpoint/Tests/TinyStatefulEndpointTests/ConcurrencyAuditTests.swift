import Foundation
import Testing
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyRequestState

@testable import TinyStatefulEndpoint

/// Concurrency audit: interleavings the compiler cannot see.
@Suite(.timeLimit(.minutes(1))) struct ConcurrencyAuditTests {
    /// `StatefulEndpoint.swift` `load()`: a load replaced by `load()` while its response is being saved is not shown,
    /// but its save goes on, unordered with the newer load's save. When the older save ends last, the store kept the
    /// older response: the next instance (the next launch) offered `"v1"` although `"v2"` was the last answer seen.
    @MainActor @Test func aReplacedLoadsSlowSaveDoesNotOverwriteTheNewerStoredResponse() async throws {
        let store = HoldingStore(keeps: true)
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: NumberingTransport(), store: store)
        endpoint.load()
        let first = try #require(endpoint.task)
        for await _ in store.saving { break }  // "v1" arrived and is being saved
        endpoint.load()  // replaces it: "v2" is fetched, saved and shown
        let second = try #require(endpoint.task)
        await second.value
        #expect(store.keptBody == "v2")
        store.release()  // the replaced load's save of "v1" ends now
        await first.value
        #expect(endpoint.value == "v2")

        let nextLaunch = StatefulEndpoint(endpoint: textEndpoint(), transport: NumberingTransport(), store: store)
        let offered = await waitUntil(nextLaunch) { $0.isSuccess }
        // The replaced load's save, ending last, saves the newer answer again.
        #expect(store.keptBody == "v2")
        #expect(offered == .success("v2"))
        #expect(store.saveCount == 3)  // "v1", "v2", and "v2" again after "v1"

        // A lone save is saved once.
        nextLaunch.load()
        await nextLaunch.task?.value
        #expect(store.saveCount == 4)
        #expect(store.keptBody == "v1")  // a new transport numbers its answers from 1 again
    }

    /// Three loads, each replacing the one before while its save runs, their saves ending in every order: the store
    /// keeps the last load's answer (four orders of six kept an older one).
    @MainActor @Test(arguments: [[1, 2, 3], [1, 3, 2], [2, 1, 3], [2, 3, 1], [3, 1, 2], [3, 2, 1]])
    func threeOverlappingSavesLeaveTheLastAnswer(endOrder: [Int]) async throws {
        let store = GatedStore(heldSaves: [1, 2, 3])
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: NumberingTransport(), store: store)
        var loads: [Task<Void, Never>] = []
        for count in 1...3 {
            endpoint.load()
            loads.append(try #require(endpoint.task))
            await until { store.saves == count }
        }
        for (ended, save) in endOrder.enumerated() {
            store.gates[save]?.open()
            await until { store.ended > ended }
        }
        for load in loads { await load.value }
        #expect(store.keptBody == "v3", "\(store.log)")
        #expect(endpoint.value == "v3")
    }

    /// A load answered `304` and replaced while it reads the stored body back begins no save: it began one after the
    /// newer load's, which counted as the newer, and its older answer was saved again over the newer one.
    @MainActor @Test func aLoadReplacedWhileItReadsTheStoredBodyBackSavesNothing() async throws {
        // Restores: 1 the instance's, 2 the 304's (held). Saves: 1 the first load's, 2 the newest load's (held).
        let store = GatedStore(heldSaves: [2], heldRestores: [2])
        let transport = ScriptedTransport([(200, "v1", #""a""#), (304, "", #""a""#), (200, "v2", #""b""#)])
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: transport, store: store)
        endpoint.load()
        await endpoint.task?.value
        endpoint.load()  // answered 304, then reads "v1" back (held)
        let replaced = try #require(endpoint.task)
        await until { store.restores == 2 }
        endpoint.load()  // answered "v2", whose save is held
        let newest = try #require(endpoint.task)
        await until { store.saves == 2 }
        store.restoreGates[2]?.open()
        await replaced.value
        store.gates[2]?.open()
        await newest.value

        #expect(store.log == ["v1", "v2"])
        #expect(store.keptBody == "v2")
        #expect(endpoint.value == "v2")
    }
}

/// Waits until `condition` holds, looking every millisecond (bounded by the suite's time limit).
@MainActor private func until(_ condition: () -> Bool) async {
    while !condition() { try? await Task.sleep(for: .milliseconds(1)) }
}

/// A store whose saves and restores of the numbers given wait for their gate to open; it keeps the last body saved.
private final class GatedStore: ResponseStore {
    private struct State {
        var saves = 0, restores = 0, ended = 0
        var kept: (body: Data, response: HTTPURLResponse)?
        var log: [String] = []
    }
    private let state = Locked(State())
    let gates: [Int: Gate]
    let restoreGates: [Int: Gate]

    init(heldSaves: [Int], heldRestores: [Int] = []) {
        gates = Dictionary(uniqueKeysWithValues: heldSaves.map { ($0, Gate()) })
        restoreGates = Dictionary(uniqueKeysWithValues: heldRestores.map { ($0, Gate()) })
    }

    var saves: Int { state.withLock { $0.saves } }
    var restores: Int { state.withLock { $0.restores } }
    var ended: Int { state.withLock { $0.ended } }
    /// The bodies saved, in the order their saves ended.
    var log: [String] { state.withLock { $0.log } }
    var keptBody: String? { log.last }

    func restore<Value>(
        for request: URLRequest, _ decode: @Sendable (Data, HTTPURLResponse) throws -> Value
    ) async -> Value? {
        let number = state.withLock { state in
            state.restores += 1
            return state.restores
        }
        await restoreGates[number]?.wait()
        guard let kept = state.withLock({ $0.kept }) else { return nil }
        return try? decode(kept.body, kept.response)
    }

    func save(_ body: Data, _ response: HTTPURLResponse, for request: URLRequest) async {
        let number = state.withLock { state in
            state.saves += 1
            return state.saves
        }
        await gates[number]?.wait()
        state.withLock { state in
            (state.kept, state.ended) = ((body, response), state.ended + 1)
            state.log.append(String(decoding: body, as: UTF8.self))
        }
    }
}

/// Answers each call with the next status, body and `ETag` of its script (the last one again after the end).
private final class ScriptedTransport: HTTPTransport {
    private let script: [(status: Int, body: String, tag: String)]
    private let calls = Locked(0)

    init(_ script: [(status: Int, body: String, tag: String)]) { self.script = script }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let call = calls.withLock { calls in
            calls += 1
            return min(calls, script.count) - 1
        }
        let (status, body, tag) = script[call]
        let url = try #require(request.url)
        let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: ["ETag": tag])
        return (Data(body.utf8), try #require(response))
    }
}
