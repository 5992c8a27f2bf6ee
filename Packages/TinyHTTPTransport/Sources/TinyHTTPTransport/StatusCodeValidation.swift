/// Accepts the status codes 200 through 299, the successful ones.
///
/// Pass it, or any `(Int) -> Bool`, wherever a set of accepted status codes is expected:
/// `Endpoint(request: request, expectedStatusCode: expected200to300, parse: parse)`.
@Sendable public func expected200to300(_ code: Int) -> Bool {
    (200..<300).contains(code)
}
