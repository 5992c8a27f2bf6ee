// Coming from tinyAPI: its string failures, kept so its reducers compile unchanged. TinyKit's own way keeps the typed
// error: `.failure(RequestError(error))`, or `RequestState(result)`.

extension RequestState {
    /// A failure with a message only (tinyAPI's spelling: `.failure(error.localizedDescription)`).
    public static func failure(_ message: String) -> Self { .failure(RequestError(message)) }
}
