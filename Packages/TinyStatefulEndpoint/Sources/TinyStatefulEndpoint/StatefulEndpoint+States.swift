import TinyRequestState

extension StatefulEndpoint {
    /// The states of this endpoint as an `AsyncSequence`, for async code on any actor or task.
    ///
    /// Each iterator starts with the current state and then gets every later state, in order, exactly once; any
    /// number of iterators may run at the same time. Each iterator buffers the states its task has not consumed
    /// yet, without limit. Iteration ends when the iterating task is cancelled or the endpoint is deallocated.
    /// Iterating does not start a load: call ``loadIfNeeded()``.
    ///
    /// ```swift
    /// for await state in todos.states {
    ///     if case .success(let items) = state { print(items.count) }
    /// }
    /// ```
    public var states: States { States(endpoint: self) }

    /// An `AsyncSequence` of the states of a ``StatefulEndpoint``; see ``StatefulEndpoint/states``.
    public struct States: AsyncSequence, Sendable {
        /// A state.
        public typealias Element = RequestState<A>
        /// The iterator of one subscriber.
        public typealias AsyncIterator = AsyncStream<RequestState<A>>.Iterator

        let endpoint: StatefulEndpoint<A>

        /// Subscribes a new iterator: it starts with the current state.
        public func makeAsyncIterator() -> AsyncIterator {
            endpoint.makeStream().makeAsyncIterator()
        }
    }

    private func makeStream() -> AsyncStream<RequestState<A>> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let id = core.withLock { core in
                let id = core.makeID()
                core.streams[id] = continuation
                continuation.yield(core.state)
                return id
            }
            continuation.onTermination = { [weak self] _ in
                self?.core.withLock { _ = $0.streams.removeValue(forKey: id) }
            }
        }
    }
}
