import Foundation
import TinyHTTPTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport answering with a closure, per test.
struct ClosureTransport: HTTPTransport {
    let handler: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

    init(_ handler: @escaping @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)) {
        self.handler = handler
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) { try await handler(request) }
}

/// A list that closures running concurrently append to.
// @unchecked Sendable: `items` is only read and written while holding `lock`.
final class Recorder<Item: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Item] = []

    func append(_ item: Item) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    var all: [Item] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

/// A response to `request` (or to `/`) with `status`, `headers` and a text body.
func reply(
    _ request: URLRequest? = nil, _ status: Int, headers: [String: String] = [:], body: String = ""
) throws -> (Data, HTTPURLResponse) {
    let url = request?.url ?? URL(fileURLWithPath: "/")
    guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
    else { throw HTTPTransportError(.other, message: "no response") }
    return (Data(body.utf8), response)
}

/// A clock whose waits are instant and recorded, and whose time stands still unless a test moves it.
struct TestClock: Sendable {
    let sleeps = Recorder<Double>()
    let times = Recorder<Double>()

    /// Each call of `now` returns the next of `times`' values (the last one forever), or 0.
    var clock: MiddlewareClock {
        let sleeps = sleeps
        let ticks = Ticker()
        let times = times
        return MiddlewareClock(
            now: { ticks.next(from: times.all) },
            sleep: { seconds in
                sleeps.append(seconds)
                try Task.checkCancellation()
            })
    }
}

// @unchecked Sendable: `index` is only read and written while holding `lock`.
final class Ticker: @unchecked Sendable {
    private let lock = NSLock()
    private var index = 0

    func next(from values: [Double]) -> Double {
        lock.lock()
        defer { lock.unlock() }
        guard let last = values.last else { return 0 }
        let value = index < values.count ? values[index] : last
        index += 1
        return value
    }
}

let testURL = URL(fileURLWithPath: "/api/items")
