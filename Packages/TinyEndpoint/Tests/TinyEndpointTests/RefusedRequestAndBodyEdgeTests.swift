import Foundation
import Testing
import TinyHTTPTransport

@testable import TinyEndpoint

/// Requests that must fail before anything is sent, and request bodies passed through generic code: edge cases found
/// by the endpoint hunt.
@Suite(.timeLimit(.minutes(1))) struct RefusedRequestAndBodyEdgeTests {
    #if canImport(FoundationNetworking)
        /// "An endpoint with a `requestError` fails with it on every one of them [the `URLSession` entries], and
        /// nothing is sent" (README, "Loading"). On Linux the refusal is reported through a placeholder data task
        /// cancelled at once (URLSession+Send.swift, `makeDataTask`). It was made for the request's own URL: for one
        /// FoundationNetworking has no protocol for, such as an upper-case `HTTPS://` (which TinyKit otherwise sends
        /// as `https://`), that task never called its completion handler, and the callback never came.
        @Test func anEndpointThatCannotBeSentFailsOnTheCallbackEntriesWhateverTheCaseOfItsScheme() async throws {
            let lower = Endpoint<()>(json: .put, url: try requireURL("https://127.0.0.1:1/me"), body: Reading.nan)
            let upper = Endpoint<()>(json: .put, url: try requireURL("HTTPS://127.0.0.1:1/me"), body: Reading.nan)
            async let lowerTask = firstCallback { done in
                URLSession.shared.dataTask(endpoint: lower, completionHandler: done).resume()
            }
            async let upperTask = firstCallback { done in
                URLSession.shared.dataTask(endpoint: upper, completionHandler: done).resume()
            }
            async let upperLoad = firstCallback { done in URLSession.shared.load(upper, onComplete: done) }
            let (lowerResult, upperTaskResult, upperLoadResult) = await (lowerTask, upperTask, upperLoad)
            #expect(isEncodingFailure(lowerResult), "\(String(describing: lowerResult))")
            #expect(isEncodingFailure(upperTaskResult), "\(String(describing: upperTaskResult))")
            #expect(isEncodingFailure(upperLoadResult), "\(String(describing: upperLoadResult))")
        }

        /// The same placeholder serves a request that `URLRequest.validate()` refuses ("fails with that error":
        /// `URLSessionTransport`, `URLSession.send`): a header value with CR/LF sent to `HTTPS://`, or a request without
        /// a URL (its placeholder was `file:///`), never returned from `load`, and cancelling the awaiting task did
        /// not end it either (the placeholder task is not recorded for the cancellation handler): the task leaked.
        @Test func aRequestTheSendPathRefusesFailsAtOnceOnTheAsyncEntries() async throws {
            let lower = Endpoint<()>(.get, url: try requireURL("https://127.0.0.1:1/x"), headers: ["X-Note": "a\r\nb"])
            let upper = lower.sent(to: try requireURL("HTTPS://127.0.0.1:1/x"))
            let noURL = Endpoint<()>(.get, url: try apiURL()).sent(to: nil)
            async let lowerResult = firstResult { try await URLSessionTransport.shared.load(lower) }
            async let upperTransport = firstResult { try await URLSessionTransport.shared.load(upper) }
            async let upperSession = firstResult { try await URLSession.shared.load(upper) }
            async let upperCancelled = firstResult(cancelled: true) { try await URLSessionTransport.shared.load(upper) }
            async let noURLTransport = firstResult { try await URLSessionTransport.shared.load(noURL) }
            let results = await (lowerResult, upperTransport, upperSession, upperCancelled, noURLTransport)
            #expect(invalidRequestMessage(results.0)?.contains("X-Note") == true, "\(String(describing: results.0))")
            #expect(
                invalidRequestMessage(results.1)?.contains("X-Note") == true, "\(String(describing: results.1))")
            #expect(
                invalidRequestMessage(results.2)?.contains("X-Note") == true, "\(String(describing: results.2))")
            #expect(results.3 != nil, "a cancelled load of a refused request never returned")
            #expect(
                invalidRequestMessage(results.4) == "the request has no URL", "\(String(describing: results.4))")
        }
    #endif

    /// "No body (the default, or an optional that is `nil`) sends no body and no `Content-Type` (not `null`)". An
    /// optional that reaches the initialiser through generic code (`B` is then `String?`, the argument `.some(nil)`)
    /// was encoded instead: the request carried the JSON `null` as `application/json`.
    @Test func aNilOptionalPassedThroughGenericCodeSendsNoBody() throws {
        func update<Body: Encodable>(_ body: Body) throws -> Endpoint<()> {
            Endpoint(json: .put, url: try apiURL("/me/nickname"), body: body)
        }
        let nickname: String? = nil
        let direct = Endpoint<()>(json: .put, url: try apiURL("/me/nickname"), body: nickname)
        #expect(direct.request.httpBody == nil)
        let generic = try update(nickname)
        #expect(generic.request.httpBody == nil, "\(generic.request.httpBody?.text ?? "")")
        #expect(generic.request.value(forHTTPHeaderField: "Content-Type") == nil)
        // A value in the same optional is sent as it is, as a `String` body is.
        #expect(try update(Optional("Ada")).request.httpBody?.text == "Ada")
    }

    /// TinyHTTP's `validateResponse` may throw an `HTTPTransportError`; the endpoint fills in what that error leaves
    /// out (the request and the body, Compatibility+TinyHTTP.swift), and the response it validated: `error.response`
    /// (status, headers such as `Retry-After`) was `nil` although the response was at hand.
    @Test func aValidationErrorWithoutAResponseGetsTheOneValidated() throws {
        let request = URLRequest(url: try apiURL("/teapot"))
        let endpoint = Endpoint<Int>(
            request: request,
            validateResponse: { response in
                if response.statusCode == 418 { throw HTTPTransportError(.unacceptableStatus(418)) }
            },
            decodeResponse: { _, _ in 1 })
        let response = try makeResponse(418, for: request, headers: ["Retry-After": "5"])
        let error = try #require(throws: HTTPTransportError.self) {
            try endpoint.parse(Data("short and stout".utf8), response).get()
        }
        #expect(error.request == request)
        #expect(error.body?.text == "short and stout")
        #expect(error.response?.value(forHTTPHeaderField: "Retry-After") == "5")
    }
}

extension Endpoint {
    /// This endpoint with its request sent to `url`.
    fileprivate func sent(to url: URL?) -> Endpoint {
        var copy = self
        copy.request.url = url
        return copy
    }
}

extension Reading {
    /// A reading whose body cannot be encoded as JSON.
    fileprivate static let nan = Reading(sensor: "t1", value: .nan)
}

/// Whether `result` is a failure with an `EndpointError.encodingFailed`.
private func isEncodingFailure(_ result: Result<Void, any Error>?) -> Bool {
    if case .failure(EndpointError.encodingFailed) = result { true } else { false }
}

/// The message of an `HTTPTransportError` of code `invalidRequest`, `nil` for any other result.
private func invalidRequestMessage(_ result: Result<Void, any Error>?) -> String? {
    guard case .failure(let error as HTTPTransportError) = result, error.code == .invalidRequest else { return nil }
    return error.message
}

/// The first value `start` hands to its callback, or `nil` when none came within `limit`. The requests here fail
/// before anything is sent, in a few milliseconds: the limit only ends a test whose callback never comes.
private func firstCallback<T: Sendable>(
    within limit: Duration = .seconds(5), _ start: (@escaping @Sendable (T) -> Void) -> Void
) async -> T? {
    let (values, continuation) = AsyncStream.makeStream(of: T?.self)
    start { continuation.yield($0) }
    let timer = Task {
        try? await Task.sleep(for: limit)
        continuation.yield(nil)
    }
    defer { timer.cancel() }
    for await value in values { return value }
    return nil
}

/// The result of `load`, run in a task of its own (cancelled at once when `cancelled`), or `nil` when it did not
/// return within `limit`.
private func firstResult(
    within limit: Duration = .seconds(5), cancelled: Bool = false,
    _ load: @escaping @Sendable () async throws -> Void
) async -> Result<Void, any Error>? {
    await firstCallback(within: limit) { done in
        let task = Task {
            do {
                try await load()
                done(.success(()))
            } catch {
                done(.failure(error))
            }
        }
        if cancelled { task.cancel() }
    }
}
