import Foundation

/// Runs `operation` in a task of its own and returns its result, or throws ``BoundedTimeout`` after `seconds` (and
/// cancels the operation), so that a hung transport fails the test instead of blocking the run.
///
/// Unlike a task group, it does not wait for an operation that ignores cancellation: that operation is left running,
/// and the caller gets the timeout. Cancelling the caller cancels the operation.
public func bounded<T: Sendable>(
    seconds: TimeInterval = 60, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let (outcomes, outcome) = AsyncThrowingStream<T, any Error>.makeStream()
    let work = Task {
        do {
            outcome.yield(try await operation())
            outcome.finish()
        } catch {
            outcome.finish(throwing: error)
        }
    }
    let timer = Task {
        // A limit that is not a positive number of seconds (negative, NaN) ends at once rather than trapping.
        let nanoseconds = seconds > 0 ? UInt64(min(seconds, 1e9) * 1_000_000_000) : 0
        guard (try? await Task.sleep(nanoseconds: nanoseconds)) != nil else { return }
        outcome.finish(throwing: BoundedTimeout(seconds: seconds))
    }
    defer {
        work.cancel()
        timer.cancel()
    }
    for try await value in outcomes { return value }
    // The stream ends without a value only when the caller was cancelled.
    throw CancellationError()
}

/// The operation given to ``bounded(seconds:_:)`` did not finish within its time limit.
public struct BoundedTimeout: Error, CustomStringConvertible {
    /// The time limit that passed.
    public var seconds: TimeInterval
    public var description: String { "the operation did not finish within \(seconds) s" }
}
