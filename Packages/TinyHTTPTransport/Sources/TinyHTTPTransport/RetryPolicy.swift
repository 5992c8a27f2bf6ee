import Foundation

/// When and how long the retry middleware (``HTTPMiddleware/retry(_:clock:)``) waits before it sends a request
/// again.
///
/// ```swift
/// let policy = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(500), maxDelay: .seconds(10))
/// ```
///
/// - Attempt *n* that failed is followed by a wait of `baseDelay × 2^(n-1)`, at most `maxDelay`, of which the
///   `jitter` fraction is random: `delay × (1 − jitter × random())`. So with the defaults (0.5 s, jitter 0.5) the
///   waits are 0.25–0.5 s, 0.5–1 s, 1–2 s, …
/// - A `Retry-After` header (seconds, or an HTTP date compared with the response's `Date` header, else the
///   current time) replaces that wait when it is at most `maxRetryAfter`; when it asks for longer, the response is
///   given up at once instead of retrying early.
/// - Only ``retryableMethods`` are retried (the idempotent ones by default: a `POST` may have had an effect), and
///   only after a ``retryableStatuses`` response or a failure whose `URLError` code is one of
///   ``retryableErrorCodes`` (refused, connection lost, no network, a timeout, an empty or broken reply, a failed
///   TLS handshake, by default). A failure without a `URLError` (AsyncHTTPClient's) counts as `cannotConnectToHost`
///   when its code is `cannotConnect`, as `timedOut` when it is `timedOut`; a failure with another inside (a credential
///   provider's request) as the one inside. Cancellation, invalid requests and any error that is not an
///   ``HTTPTransportError`` or a `URLError` (a decoding failure, say) are never retried.
public struct RetryPolicy: Sendable {
    /// How many times a request is sent at most, the first time included (`1`: never retried).
    public var maxAttempts: Int
    /// The wait after the first failed attempt; it doubles after each further one.
    public var baseDelay: Duration
    /// The longest wait between two attempts, before jitter.
    public var maxDelay: Duration
    /// The fraction of each wait that is random, from `0` (none) to `1` (anywhere between zero and the delay).
    public var jitter: Double
    /// The longest `Retry-After` honoured; a response asking for longer is not retried.
    public var maxRetryAfter: Duration
    /// The methods retried: `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS` and `TRACE` by default.
    public var retryableMethods: Set<HTTPMethod>
    /// The statuses retried: `408`, `429`, `500`, `502`, `503` and `504` by default.
    public var retryableStatuses: Set<Int>
    /// The `URLError` codes of the failures retried: by default `cannotConnectToHost`, `cannotFindHost`,
    /// `dnsLookupFailed`, `networkConnectionLost`, `notConnectedToInternet`, `timedOut`, `badServerResponse` (on
    /// Linux, a connection closed before any response) and `secureConnectionFailed`. Empty: no failure is retried.
    public var retryableErrorCodes: Set<URLError.Code>
    /// A random number in `0..<1` for the jitter: inject a fixed one in tests.
    var random: @Sendable () -> Double

    /// Creates a policy; every parameter has a default.
    public init(
        maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30),
        jitter: Double = 0.5, maxRetryAfter: Duration = .seconds(60),
        retryableMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, "OPTIONS", "TRACE"],
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryableErrorCodes: Set<URLError.Code> = [
            .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .networkConnectionLost, .notConnectedToInternet,
            .timedOut, .badServerResponse, .secureConnectionFailed,
        ],
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.maxRetryAfter = maxRetryAfter
        self.retryableMethods = retryableMethods
        self.retryableStatuses = retryableStatuses
        self.retryableErrorCodes = retryableErrorCodes
        self.random = random
    }

    /// The wait after failed attempt `attempt` (1 for the first), without `Retry-After`.
    func backoff(afterAttempt attempt: Int) -> Duration {
        let exponent = Double(min(max(attempt - 1, 0), 62))
        let delay = min(max(baseDelay / .seconds(1), 0) * pow(2, exponent), max(maxDelay / .seconds(1), 0))
        return .seconds(min(delay * (1 - Self.unit(jitter) * Self.unit(random())), 1e15))
    }

    /// `value` within `0...1`, NaN as `0`: NaN would pass `min`/`max` and trap in `.seconds(_:)`.
    private static func unit(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, 0), 1) }

    /// Whether a failure can be retried: its `URLError` code (without one, the code its own stands for) is one of
    /// ``retryableErrorCodes``. Never a cancelled or invalid request.
    func isRetryable(_ error: HTTPTransportError) -> Bool {
        guard error.code != .cancelled, error.code != .invalidRequest else { return false }
        // A failure inside another (a credential provider's own request) is judged as itself.
        if let nested = error.underlyingError as? HTTPTransportError { return isRetryable(nested) }
        let underlying = error.underlyingError.flatMap(HTTPTransportError.urlErrorCode(of:))
        if let underlying, retryableErrorCodes.contains(underlying) { return true }
        // Without a `URLError` (AsyncHTTPClient's failures), or with an unknown one (libcurl's connection closed in
        // the body, mapped to `cannotConnect`), the code stands for its `URLError`.
        guard underlying == nil || underlying == .unknown else { return false }
        return error.code == .cannotConnect && retryableErrorCodes.contains(.cannotConnectToHost)
            || error.code == .timedOut && retryableErrorCodes.contains(.timedOut)
    }

    /// The wait a response's `Retry-After` asks for: its number of seconds, or its HTTP date minus the response's
    /// `Date` (else `now`); `nil` when it has none or it cannot be read. Never negative.
    static func retryAfter(of response: HTTPURLResponse, now: Date = Date()) -> Duration? {
        let value = response.value(forHTTPHeaderField: "Retry-After")?.trimmingCharacters(in: .whitespaces)
        if let value, !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            // At most 10^15 s, as a date's: a clock traps near Int64.max.
            return .seconds(min(Int64(value) ?? .max, 1_000_000_000_000_000))
        }
        return response.duration(untilDateIn: "Retry-After", now: now)
    }
}
