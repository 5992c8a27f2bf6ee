// Coming from tinyAPI: its error cases as values (`TinyAPIError.invalidURL`, `.httpError(404)`, …), kept so its
// `catch` and `Result<…, TinyAPIError>` code compiles unchanged. TinyKit's own way is to switch over `kind`.

extension TinyAPIError {
    /// The URL could not be built.
    public static var invalidURL: TinyAPIError { TinyAPIError(.invalidURL) }
    /// The response had no body.
    public static var noData: TinyAPIError { TinyAPIError(.noData) }
    /// The body could not be decoded.
    public static func decodingError(_ message: String) -> TinyAPIError { TinyAPIError(.decodingError(message)) }
    /// The server answered with an unaccepted status code.
    public static func httpError(_ statusCode: Int) -> TinyAPIError { TinyAPIError(.httpError(statusCode)) }
    /// The transport failed: `.networkError(error.localizedDescription)`.
    public static func networkError(_ message: String) -> TinyAPIError { TinyAPIError(.networkError(message)) }
}
