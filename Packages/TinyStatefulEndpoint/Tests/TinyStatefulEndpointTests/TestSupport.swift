import Foundation
import TinyEndpoint
import TinyHTTPTransport
import TinyRequestState

@testable import TinyStatefulEndpoint

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport whose answers come from a closure per test; counts and numbers its calls.
final class StubTransport: HTTPTransport {
    typealias Respond = @Sendable (_ call: Int, _ request: URLRequest) async throws -> (Data, HTTPURLResponse)

    private let respond: Respond
    private let recorder = CallRecorder()

    init(_ respond: @escaping Respond) { self.respond = respond }

    /// Answers every request with `body` and status 200.
    convenience init(json body: String) {
        self.init { _, request in (Data(body.utf8), try .ok(request)) }
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let call = await recorder.record()
        return try await respond(call, request)
    }

    /// How many requests were sent.
    var callCount: Int { get async { await recorder.count } }

    /// Waits until at least `count` requests were sent.
    func waitForCalls(_ count: Int) async { await recorder.wait(for: count) }
}

/// Counts calls and wakes whoever waits for a number of them.
actor CallRecorder {
    private(set) var count = 0
    private var waiters: [(Int, CheckedContinuation<Void, Never>)] = []

    func record() -> Int {
        count += 1
        waiters.removeAll { target, continuation in
            guard target <= count else { return false }
            continuation.resume()
            return true
        }
        return count
    }

    func wait(for target: Int) async {
        if count >= target { return }
        await withCheckedContinuation { waiters.append((target, $0)) }
    }
}

/// Holds suspended callers until it is opened.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

/// A clock the test moves by hand.
final class TestClock: @unchecked Sendable {
    // @unchecked Sendable: `current` is only read and written while holding `lock`.
    private let lock = NSLock()
    private var current = Date(timeIntervalSinceReferenceDate: 0)

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func advance(by seconds: TimeInterval) {
        lock.lock()
        current += seconds
        lock.unlock()
    }
}

/// Collects values from any thread.
final class Collected<Value>: @unchecked Sendable {
    // @unchecked Sendable: `items` is only read and written while holding `lock`.
    private let lock = NSLock()
    private var items: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        items.append(value)
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }

    func removeAll() {
        lock.lock()
        items.removeAll()
        lock.unlock()
    }
}

/// An object whose only job is to be owned, observed, and deallocated.
final class Owner: Sendable {}

extension HTTPURLResponse {
    /// A response to `request` with `status`.
    static func ok(_ request: URLRequest, status: Int = 200) throws -> HTTPURLResponse {
        let url = request.url ?? URL(fileURLWithPath: "/")
        guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: nil) else {
            throw URLError(.badServerResponse)
        }
        return response
    }
}

/// Waits until `endpoint` is in a state `predicate` accepts (or the task is cancelled) and returns that state.
@discardableResult
func waitUntil<A: Sendable>(
    _ endpoint: StatefulEndpoint<A>, _ predicate: @escaping @Sendable (RequestState<A>) -> Bool
) async -> RequestState<A>? {
    for await state in endpoint.states where predicate(state) { return state }
    return nil
}

/// An endpoint that parses the body as a UTF-8 string.
func textEndpoint(_ url: String = "https://example.com/text") -> Endpoint<String> {
    Endpoint(request: URLRequest(url: URL(string: url) ?? URL(fileURLWithPath: "/"))) { data, _ in
        .success(String(decoding: data ?? Data(), as: UTF8.self))
    }
}

/// Answers call `n` with the text `"v<n>"`.
let numberedResponses: StubTransport.Respond = { call, request in (Data("v\(call)".utf8), try .ok(request)) }
