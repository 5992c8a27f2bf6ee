import Foundation

/// Accepts the status codes 200 through 299, the successful ones.
///
/// Pass it, or any `(Int) -> Bool`, wherever a set of accepted status codes is expected:
/// `Endpoint(request: request, expectedStatusCode: expected200to300, parse: parse)`.
@Sendable public func expected200to300(_ code: Int) -> Bool {
    (200..<300).contains(code)
}

/// Accepts the status codes in `codes`, a range or a list: `expectedStatus(200..<400)`, `expectedStatus(200...)`,
/// `expectedStatus([200, 204, 304])`.
public func expectedStatus(_ codes: some Sequence<Int> & Sendable) -> @Sendable (Int) -> Bool {
    // `Sequence.contains` would walk `200...` from 200 up to a code below it; other ranges and sets answer at once.
    if let from = codes as? PartialRangeFrom<Int> { return { $0 >= from.lowerBound } }
    return { codes.contains($0) }
}

/// Checks a response's status code and throws when it is not accepted.
///
/// ```swift
/// let (body, response) = try await transport.send(request)
/// try validateStatus(response: response, body: body, request: request)   // 2xx only
/// try validateStatus(response: response, body: body, request: request, expectedStatusCode: expectedStatus([200, 304]))
/// ```
///
/// - Throws: ``HTTPTransportError`` with ``HTTPTransportError/Code/unacceptableStatus(_:)``, carrying the
///   response, the body and the request.
public func validateStatus(
    response: HTTPURLResponse, body: Data, request: URLRequest?,
    expectedStatusCode: (Int) -> Bool = expected200to300
) throws(HTTPTransportError) {
    guard expectedStatusCode(response.statusCode) else {
        throw HTTPTransportError(
            .unacceptableStatus(response.statusCode), request: request, response: response, body: body)
    }
}
