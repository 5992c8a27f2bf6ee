import TinyRequestState

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension StatefulEndpoint {
    /// Calls `observer` with the current state at once and then with every later state, on the main actor, until
    /// `owner` is deallocated or the returned token is cancelled; starts a load if there is no usable value yet (see
    /// ``loadIfNeeded()``).
    ///
    /// The observation is bound to `owner`, held weakly: the token may be discarded. The endpoint keeps `observer`
    /// until the observation ends, so a closure that captures the owner strongly keeps it alive: capture
    /// `[weak self]`, or use ``observe(owner:_:)-(Owner,_)``, which hands the owner to the closure.
    ///
    /// - Parameters:
    ///   - owner: The object whose lifetime bounds the observation.
    ///   - observer: Called with each state.
    /// - Returns: A token that ends the observation early.
    @discardableResult
    public func observe(owner: AnyObject, _ observer: @escaping @MainActor (RequestState<A>) -> Void)
        -> ObservationToken
    {
        add(owner: owner, loading: true) { _, state in observer(state) }
    }

    /// Like ``observe(owner:_:)-(AnyObject,_)``, but hands the owner to `observer`, so the closure needs no reference
    /// to it and the owner is never kept alive:
    ///
    /// ```swift
    /// todos.observe(owner: self) { screen, state in screen.render(state) }
    /// ```
    @discardableResult
    public func observe<Owner: AnyObject>(
        owner: Owner, _ observer: @escaping @MainActor (Owner, RequestState<A>) -> Void
    ) -> ObservationToken {
        add(owner: owner, loading: true) { owner, state in observer(unsafeDowncast(owner, to: Owner.self), state) }
    }

    /// Calls `observer` with the current state at once and then with every later state, on the main actor, for as
    /// long as the returned token lives: the observation ends when the token is cancelled or released. Starts a load
    /// if there is no usable value yet.
    ///
    /// ```swift
    /// let token = todos.observe { state in print(state) }  // keep `token` for as long as you observe
    /// ```
    public func observe(_ observer: @escaping @MainActor (RequestState<A>) -> Void) -> ObservationToken {
        add(owner: nil, loading: true) { _, state in observer(state) }
    }

    /// The current state, then every later state, in order, for async code on any actor or task.
    ///
    /// Each access makes a new sequence, observing from then until it is dropped (a `for await` over `todos.states`
    /// drops it when the loop ends); it buffers the states its task has not consumed yet, without limit (a sequence
    /// kept in a property without being read holds every state since its access), and ends when the iterating task
    /// is cancelled or the endpoint is deallocated. Iterating does not start a load:
    /// call ``loadIfNeeded()``.
    ///
    /// ```swift
    /// for await state in todos.states {
    ///     if case .success(let items) = state { print(items.count) }
    /// }
    /// ```
    public var states: AsyncStream<RequestState<A>> {
        let (stream, continuation) = AsyncStream<RequestState<A>>.makeStream()
        // The observation's end (the endpoint released, the iteration over) finishes the stream.
        let iteration = add(owner: nil, loading: false, onEnd: { continuation.finish() }) { continuation.yield($1) }
        // Bound to its token, which the stream holds until the iteration ends.
        continuation.onTermination = { _ in withExtendedLifetime(iteration) {} }
        return stream
    }

    /// Registers `call`, bound to `owner` (or to the returned token); `onEnd` runs once when the observation ends.
    @discardableResult func add(
        owner: AnyObject?, loading: Bool, onEnd: (@MainActor () -> Void)? = nil,
        _ call: @escaping @MainActor (AnyObject, RequestState<A>) -> Void
    ) -> ObservationToken {
        let token = ObservationToken()
        let observer = Observer()
        (observer.owner, observer.call, observer.onEnd) = (owner ?? token, call, onEnd)
        token.end = { observer.end() }  // strong: retaining a weakly referenced object takes a slow path
        // Ended ones go at a change of state, and here once the list has doubled since (a fresh value may never
        // change): amortized, a screen that comes and goes costs no walk of every observer.
        if observers.count >= pruneAt {
            removeEnded()
            pruneAt = max(16, 2 * observers.count)
        }
        observers.append(observer)
        joins += 1
        let wasIdle = current.isIdle
        // Called with the current state: as a delivery of its own, so that a change made in this call reaches it after
        // the call; during a delivery, now (the delivery under way holds back what it makes).
        if !delivering {
            deliver(current, from: observers.count - 1)
        } else {
            call(owner ?? token, current)
        }
        // Not after a first call that cleared the value it was handed (a sign-out screen): that call decided.
        if loading, current.isIdle == wasIdle { loadIfNeeded() }
        return token
    }
}
