import Foundation

#if canImport(Glibc)
    import Glibc
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
    private let sendFlags = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
    import Darwin
    private let streamSocket = SOCK_STREAM
    private let sendFlags: Int32 = 0
#endif

/// What a raw exchange came to: the bytes received, and how the connection ended.
struct RawReply: Sendable {
    var bytes: Data
    /// `nil` when the server closed the connection normally; the errno of the failed call otherwise.
    var error: Int32?

    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Sends `request` on a new connection to `127.0.0.1:port`, then reads until the server closes the connection (at
/// most `timeout` seconds between two reads), on a thread of its own.
func rawExchange(port: UInt16, _ request: Data, timeout: Int = 10) async -> RawReply {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(returning: blockingExchange(port: port, request, timeout: timeout))
        }
    }
}

private func blockingExchange(port: UInt16, _ request: Data, timeout: Int = 10) -> RawReply {
    let connection = socket(AF_INET, streamSocket, 0)
    guard connection >= 0 else { return RawReply(bytes: Data(), error: errno) }
    defer { close(connection) }
    var limit = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(connection, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
    guard connected else { return RawReply(bytes: Data(), error: errno) }
    let sendError = request.withUnsafeBytes { buffer -> Int32? in
        guard let base = buffer.baseAddress else { return nil }
        var offset = 0
        while offset < buffer.count {
            let written = send(connection, base + offset, buffer.count - offset, sendFlags)
            if written <= 0 { return errno }
            offset += written
        }
        return nil
    }
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = recv(connection, &buffer, buffer.count, 0)
        if count == 0 { return RawReply(bytes: received, error: sendError) }
        if count < 0 { return RawReply(bytes: received, error: errno) }
        received.append(contentsOf: buffer[0..<count])
    }
}
