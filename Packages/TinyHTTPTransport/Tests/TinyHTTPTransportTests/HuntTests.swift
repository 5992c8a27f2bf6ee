import Foundation
import Testing

@testable import TinyHTTPTransport

/// Reads what is left of a request's body stream, as a transport sending it would.
private func drain(_ stream: InputStream?) -> Data {
    guard let stream else { return Data() }
    stream.open()
    defer { stream.close() }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1024)
    while true {
        let count = stream.read(&buffer, maxLength: buffer.count)
        if count <= 0 { break }
        data.append(buffer, count: count)
    }
    return data
}

/// `Bearer old` until the first refresh, `Bearer new` after it.
private actor RotatingTokens: CredentialProvider {
    private var token = "Bearer old"
    func credential() -> String? { token }
    func refreshCredential(rejected: String?) -> String {
        token = "Bearer new"
        return token
    }
}

/// Bugs found by the middleware hunt: regression tests now.
@Suite(.timeLimit(.minutes(1))) struct HuntTests {
    let clock = RecordingClock()
    let policy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(30), jitter: 0, random: { 0.5 })

    /// A `PUT` whose body is an `httpBodyStream` is retried after a `503` with the same, already read, stream: the
    /// second attempt goes out with an empty body (a PUT that empties the resource). A stream cannot be replayed: a
    /// request with one must not be sent again (or must be sent with its whole body).
    @Test func aRetryDoesNotResendAnAlreadyReadBodyStream() async throws {
        let payload = Data("the whole document".utf8)
        let bodies = Recorder<Data>()
        let transport = ClosureTransport { request in
            bodies.append(drain(request.httpBodyStream))
            return try reply(request, bodies.all.count == 1 ? 503 : 200)
        }.with(.retry(policy, clock: clock))
        var request = URLRequest(method: .put, url: testURL)
        request.httpBodyStream = InputStream(data: payload)

        _ = try await transport.send(request)
        #expect(bodies.all.allSatisfy { $0 == payload }, "bodies sent: \(bodies.all.map(\.count)) bytes")
    }

    /// The authorization middleware sends a request refused with `401` again "whatever its method": a `POST` whose
    /// body is an `httpBodyStream` then goes out with the refreshed credential and an empty body, which the server
    /// accepts and acts on.
    @Test func aRefusedRequestIsNotResentWithAnAlreadyReadBodyStream() async throws {
        let payload = Data(#"{"amount":100}"#.utf8)
        let bodies = Recorder<Data>()
        let transport = ClosureTransport { request in
            bodies.append(drain(request.httpBodyStream))
            let accepted = request.value(forHTTPHeaderField: "Authorization") == "Bearer new"
            return try reply(request, accepted ? 201 : 401)
        }.with(.authorization(RotatingTokens()))
        var request = URLRequest(method: .post, url: testURL)
        request.httpBodyStream = InputStream(data: payload)

        _ = try await transport.send(request)
        #expect(bodies.all.allSatisfy { $0 == payload }, "bodies sent: \(bodies.all.map(\.count)) bytes")
    }

    /// `retryableErrorCodes` says "Empty: no failure is retried", but a failure without a `URLError` (an
    /// AsyncHTTPClient timeout or refused connection) is retried whatever the set holds: with `[]`, and with a set
    /// from which the caller removed `.timedOut`, a timeout is still sent three times.
    @Test(arguments: [HTTPTransportError.Code.cannotConnect, .timedOut])
    func anEmptySetOfRetryableErrorCodesRetriesNoFailure(code: HTTPTransportError.Code) async throws {
        var policy = policy
        policy.retryableErrorCodes = []
        let sent = Recorder<URLRequest>()
        let transport = ClosureTransport { request in
            sent.append(request)
            throw HTTPTransportError(code, request: request)
        }.with(.retry(policy, clock: clock))

        await #expect(throws: HTTPTransportError.self) {
            try await transport.send(URLRequest(method: .get, url: testURL))
        }
        #expect(sent.all.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    /// RFC 9110 §5.6.7: "A recipient that parses a timestamp value in an HTTP field MUST accept all three HTTP-date
    /// formats". The RFC 850 and asctime forms of a `Retry-After` date are not read: the server's 30 s are replaced
    /// by the 1 s backoff.
    @Test(arguments: ["Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func retryAfterInTheObsoleteHTTPDateFormsIsHonoured(retryAfter: String) async throws {
        let sent = Recorder<URLRequest>()
        let transport = ClosureTransport { request in
            sent.append(request)
            let headers = ["Retry-After": retryAfter, "Date": "Sun, 06 Nov 1994 08:49:07 GMT"]
            return try reply(request, sent.all.count == 1 ? 503 : 200, headers: headers)
        }.with(.retry(policy, clock: clock))

        _ = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(clock.sleeps == [.seconds(30)])
    }

    /// "No cap" spelled `maxRetryAfter: .seconds(Int64.max)`, and a server sending `Retry-After:
    /// 99999999999999999999`: read as `Int64.max` seconds, the wait overflowed `ContinuousClock`'s deadline and the
    /// process trapped ("Not enough bits to represent the passed value"). It is capped at 10¹⁵ s now, as an HTTP
    /// date is, a wait the clock takes. (In process, on a recording clock: an exit test's child process fails under
    /// LeakSanitizer for what the cancelled sleep leaves behind.)
    @Test func aHugeRetryAfterUnderAnUncappedPolicyDoesNotTrap() async throws {
        let clock = RecordingClock()
        let transport = ClosureTransport { request in
            try reply(request, 503, headers: ["Retry-After": "99999999999999999999"])
        }.with(.retry(RetryPolicy(maxAttempts: 2, maxRetryAfter: .seconds(Int64.max)), clock: clock))
        _ = try? await transport.send(URLRequest(method: .get, url: testURL))
        #expect(clock.sleeps == [.seconds(1_000_000_000_000_000)])
    }

    /// The random number of the jitter is clamped to `0...1` (as `jitter` is, after a fix for NaN), but a NaN passes
    /// `min`/`max` and `.seconds(.nan)` traps, even with `jitter: 0` (`0 × NaN` is NaN).
    @Test func aRandomNumberThatIsNotANumberDoesNotTrap() async {
        await #expect(processExitsWith: .success) {
            let policy = RetryPolicy(baseDelay: .seconds(1), jitter: 0, random: { .nan })
            precondition(policy.backoff(afterAttempt: 1) == .seconds(1))
        }
    }

    /// `setHeader` promises to replace "any value under the same name (compared case-insensitively)", but removes
    /// only the first field whose name matches: a request whose fields hold two spellings (`allHTTPHeaderFields` set
    /// from merged dictionaries, which Linux Foundation keeps apart) keeps a stale one, which
    /// `value(forHTTPHeaderField:)` may return and which goes on the wire next to the new value. The authorization
    /// and default-header middleware set their headers with it.
    @Test func setHeaderReplacesEverySpellingOfTheName() {
        var request = URLRequest(method: .get, url: testURL)
        request.allHTTPHeaderFields = ["content-type": "text/plain", "CONTENT-TYPE": "text/html"]

        request.setHeader("Content-Type", "application/json")

        let fields = request.allHTTPHeaderFields ?? [:]
        #expect(fields == ["Content-Type": "application/json"])
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    /// RFC 9110 §5.6.7's asctime form is `date3 = month SP ( 2DIGIT / ( SP DIGIT ) )`, so `Nov 06` is as valid as
    /// `Nov  6` (recipients "MUST accept all three HTTP-date formats"). The round trip through `d` refused the
    /// zero-padded day: the server's 30 s became the 1 s backoff.
    @Test func retryAfterInTheAsctimeFormWithATwoDigitDayIsHonoured() async throws {
        let sent = Recorder<URLRequest>()
        let transport = ClosureTransport { request in
            sent.append(request)
            let headers = ["Retry-After": "Sun Nov 06 08:49:37 1994", "Date": "Sun, 06 Nov 1994 08:49:07 GMT"]
            return try reply(request, sent.all.count == 1 ? 503 : 200, headers: headers)
        }.with(.retry(policy, clock: clock))

        _ = try await transport.send(URLRequest(method: .get, url: testURL))

        #expect(clock.sleeps == [.seconds(30)])
    }
}
