import Foundation

/// An error a ``Store`` reports: a reducer rejected an action, or an effect failed and no `catch` handled it.
///
/// The store passes it to its ``Store/onError`` handler; nothing is swallowed silently.
public struct StoreError<Action: Sendable>: Error, CustomStringConvertible {
    /// Where the error was thrown.
    public enum Origin: Sendable, Equatable {
        /// `reducer`: the reducer threw, so the action was rejected and the state left as it was. `effect`: the effect
        /// of the action threw.
        case reducer, effect
    }

    /// The action whose reducer or effect threw.
    public var action: Action
    /// Whether the reducer or the effect threw.
    public var origin: Origin
    /// The error thrown.
    public var error: any Error

    /// For example `The reducer threw for action increment: invalidTransition`. A Foundation error (a `URLError`
    /// that `URLSession` threw in an effect) is told by its domain, code and sentence: its whole dump holds its
    /// `userInfo`, the failing URL with its secrets. Another error with an `errorDescription` is told by it (an
    /// `EndpointError`'s holds no body, its `description` a token endpoint's).
    public var description: String {
        let (nsError, foundation) = (error as NSError, error is URLError || type(of: error) is NSError.Type)
        let shown =
            foundation
            ? "\(nsError.domain) \(nsError.code) (\(nsError.localizedDescription))"
            : (error as? any LocalizedError)?.errorDescription ?? "\(error)"
        return "The \(origin) threw for action \(action): \(shown)"
    }
}
