import Foundation
@_spi(TinyKit) import TinyHTTPTransport

#if canImport(Glibc)
    import Glibc
    private let pollDescriptors = Glibc.poll
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
    private let sendFlags = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
    import Darwin
    private let pollDescriptors = Darwin.poll
    private let streamSocket = SOCK_STREAM
    private let sendFlags: Int32 = 0
#endif

/// A TCP server on `127.0.0.1` (a free port) that answers every connection with the same script of raw bytes,
/// pauses, closes and resets: the hostile behaviours an HTTP server library will not produce (a reply that is not
/// HTTP, a connection closed mid-body, a reset).
///
/// ```swift
/// let server = try RawSocketServer.start([.send(Data("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8)), .reset])
/// defer { server.stop() }
/// ```
///
/// Each connection is served on its own thread: the server reads the request head (up to the blank line), then runs
/// the script. A connection whose script ends is closed normally.
public final class RawSocketServer: Sendable {
    /// One step of the script a connection runs after the request head arrived.
    public enum Step: Sendable {
        /// Writes these bytes.
        case send(Data)
        /// Writes these bytes one at a time, waiting `interval` seconds before each byte after the first.
        case trickle(Data, interval: TimeInterval)
        /// Waits `seconds`, or less when the client closes the connection first (the script then stops).
        case pause(TimeInterval)
        /// Writes these bytes again and again, waiting `interval` seconds between writes, until the client closes
        /// the connection (an endless stream, for example of `1xx` responses); the script then stops.
        case `repeat`(Data, interval: TimeInterval)
        /// Closes the connection with a TCP reset (`SO_LINGER` 0) and stops the script.
        case reset
    }

    /// The port the server listens on.
    public let port: UInt16
    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL

    private let listener: Int32
    private let counters: RawCounters

    private init(listener: Int32, port: UInt16, counters: RawCounters) {
        self.listener = listener
        self.port = port
        self.counters = counters
        self.baseURL = URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    deinit { stop() }

    /// Starts listening on `127.0.0.1`, on a port the system picks, and serves every connection with `script`.
    public static func start(_ script: [Step]) throws -> RawSocketServer {
        let listener = socket(AF_INET, streamSocket, 0)
        guard listener >= 0 else { throw TestServerError(message: "socket() failed: errno \(errno)") }
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listener, socketAddress, length) == 0 && listen(listener, 64) == 0
                    && getsockname(listener, socketAddress, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw TestServerError(message: "could not listen on 127.0.0.1: errno \(errno)")
        }
        let counters = RawCounters(RawCounterValues())
        let server = RawSocketServer(listener: listener, port: UInt16(bigEndian: address.sin_port), counters: counters)
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 {
                    if errno == EINTR { continue }
                    return  // the listener was shut down by stop()
                }
                Thread.detachNewThread { serve(connection, script: script, counters: counters) }
            }
        }
        return server
    }

    /// The URL of `pathAndQuery` on this server.
    public func url(_ pathAndQuery: String = "/") -> URL {
        URL(string: baseURL.absoluteString + (pathAndQuery.hasPrefix("/") ? "" : "/") + pathAndQuery) ?? baseURL
    }

    /// Stops accepting connections (connections in progress finish their scripts). Stopping twice is harmless.
    public func stop() {
        guard counters.markStopped() else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// The number of request heads received so far.
    public var requests: Int { counters.read { $0.requests } }

    /// The number of connections the client closed while a ``Step/pause(_:)`` waited.
    public var closedByClient: Int { counters.read { $0.closedByClient } }

    /// Waits until the client closed at least `count` connections during a pause, for at most `timeout` seconds.
    public func waitForClosedByClient(atLeast count: Int = 1, timeout: TimeInterval = 30) async -> Bool {
        await poll(timeout: timeout) { $0.closedByClient >= count }
    }

    /// Waits until at least `count` request heads arrived, for at most `timeout` seconds.
    public func waitForRequests(atLeast count: Int = 1, timeout: TimeInterval = 30) async -> Bool {
        await poll(timeout: timeout) { $0.requests >= count }
    }

    private func poll(timeout: TimeInterval, until condition: (RawCounterValues) -> Bool) async -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !counters.read(condition) {
            if Date() >= deadline || Task.isCancelled { return false }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return true
    }

    private static func serve(_ connection: Int32, script: [Step], counters: RawCounters) {
        var resetting = false
        defer {
            if resetting {
                var option = linger(l_onoff: 1, l_linger: 0)
                setsockopt(connection, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
            }
            close(connection)
        }
        guard readRequest(connection) else { return }
        counters.update { $0.requests += 1 }
        for step in script {
            switch step {
            case .send(let data):
                guard write(data, to: connection) else { return }
            case .trickle(let data, let interval):
                for (index, byte) in data.enumerated() {
                    if index > 0, !waitWhileOpen(connection, seconds: interval, counters: counters) { return }
                    guard write(Data([byte]), to: connection) else { return }
                }
            case .pause(let seconds):
                guard waitWhileOpen(connection, seconds: seconds, counters: counters) else { return }
            case .repeat(let data, let interval):
                while write(data, to: connection) {
                    guard waitWhileOpen(connection, seconds: interval, counters: counters) else { return }
                }
                counters.update { $0.closedByClient += 1 }
                return
            case .reset:
                resetting = true
                return
            }
        }
    }

    /// Reads the request: its head and the body its `Content-Length` or its chunks announce (a socket closed with
    /// bytes unread is reset, not closed); `false` when the client left first or a line runs past 64 KB.
    private static func readRequest(_ connection: Int32) -> Bool {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        func fill() -> Bool {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count > 0 { pending += buffer[0..<count] }
            return count > 0
        }
        func line() -> String? {  // the next line, lower-cased, without its CRLF
            while true {
                if let end = pending.firstRange(of: [13, 10]) {
                    defer { pending.removeFirst(end.upperBound) }
                    return String(decoding: pending[..<end.lowerBound], as: UTF8.self).lowercased()
                }
                guard pending.count < 65_536, fill() else { return nil }
            }
        }
        func skip(_ count: Int) -> Bool {
            while pending.count < count { guard fill() else { return false } }
            pending.removeFirst(count)
            return true
        }
        var fields: [String] = []
        while let field = line() {
            guard !field.isEmpty else { break }
            fields.append(field)
        }
        if fields.contains(where: { $0.hasPrefix("transfer-encoding:") && $0.hasSuffix("chunked") }) {
            // Chunks (an `httpBodyStream`'s): a hex size, maybe `;extensions`, the data and CRLF; trailers after the
            // last, up to a blank line.
            while let size = line().flatMap({
                Int($0.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces), radix: 16)
            }) {
                if size > 0 {
                    guard skip(size + 2) else { return false }
                    continue
                }
                while let trailer = line(), !trailer.isEmpty {}
                return true
            }
            return false
        }
        let length = fields.first { $0.hasPrefix("content-length:") }.flatMap {
            Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces))
        }
        return skip(length ?? 0)
    }

    private static func write(_ data: Data, to connection: Int32) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = send(connection, buffer.baseAddress! + offset, buffer.count - offset, sendFlags)
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// Waits `seconds` unless the client closes the connection first; `false` (and counted) when it did.
    private static func waitWhileOpen(_ connection: Int32, seconds: TimeInterval, counters: RawCounters) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return true }
            var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            let ready = pollDescriptors(&descriptor, 1, Int32(min(remaining, 0.5) * 1000) + 1)
            guard ready > 0 else { continue }
            // Readable: either more bytes from the client (ignored) or its end of the connection.
            if recv(connection, &buffer, buffer.count, 0) <= 0 {
                counters.update { $0.closedByClient += 1 }
                return false
            }
        }
    }
}

/// What a ``RawSocketServer`` counts, shared by its connection threads.
private struct RawCounterValues: Sendable {
    var requests = 0
    var closedByClient = 0
    var stopped = false
}

private typealias RawCounters = Locked<RawCounterValues>

extension Locked where Value == RawCounterValues {
    fileprivate func update(_ body: (inout Value) -> Void) { withLock(body) }
    fileprivate func read<R>(_ body: (Value) -> R) -> R { withLock { body($0) } }

    /// Marks the server stopped; `false` when it was already.
    fileprivate func markStopped() -> Bool {
        withLock { values in
            defer { values.stopped = true }
            return !values.stopped
        }
    }
}
