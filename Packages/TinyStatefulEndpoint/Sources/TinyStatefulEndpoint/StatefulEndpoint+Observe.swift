import TinyRequestState

extension StatefulEndpoint {
    /// Calls `observer` on the main actor with the current state (unless `observeCurrent` is `false`) and then with
    /// every later state, in order, until `owner` is deallocated or the observation is removed; starts a load if there
    /// is no usable value yet (see ``loadIfNeeded()``).
    ///
    /// The endpoint keeps `owner` only weakly, but it keeps `observer` until the observation ends: a closure that
    /// captures the owner strongly keeps it alive for as long as the endpoint lives. Capture `[weak self]`, or use
    /// ``observe(owner:observeCurrent:_:)-(Owner,_,_)``, which hands the owner to the closure.
    ///
    /// The current state is delivered synchronously, before this method returns. Later states are delivered in the
    /// order they happened, each exactly once. After the observation is removed on the main actor, no further state
    /// reaches it; removed from another thread, a delivery already under way on the main actor may still finish.
    ///
    /// - Parameters:
    ///   - owner: The object whose lifetime bounds the observation; held weakly.
    ///   - observeCurrent: Whether to deliver the current state first.
    ///   - observer: Called on the main actor with each state.
    /// - Returns: A token that removes this observation.
    @MainActor @discardableResult
    public func observe(
        owner: AnyObject, observeCurrent: Bool = true, _ observer: @escaping @MainActor (RequestState<A>) -> Void
    ) -> ObservationToken {
        let (id, current) = core.withLock { core in
            let id = core.makeID()
            core.observers[id] = Observer(owner: WeakOwner(object: owner), callback: .mainActor(observer))
            return (id, core.state)
        }
        if observeCurrent { observer(current) }
        loadIfNeeded()
        return ObservationToken(id: id, endpointID: ObjectIdentifier(self)) { [weak self] in
            self?.removeObserver(id: id)
        }
    }

    /// Like ``observe(owner:observeCurrent:_:)-(AnyObject,_,_)``, but hands the owner to `observer`, so the closure
    /// needs no reference to it and the owner is never kept alive:
    ///
    /// ```swift
    /// todos.observe(owner: self) { controller, state in controller.render(state) }
    /// ```
    @MainActor @discardableResult
    public func observe<Owner: AnyObject>(
        owner: Owner, observeCurrent: Bool = true,
        _ observer: @escaping @MainActor (Owner, RequestState<A>) -> Void
    ) -> ObservationToken {
        observe(owner: owner as AnyObject, observeCurrent: observeCurrent) { [weak owner] state in
            if let owner { observer(owner, state) }
        }
    }

    /// Calls `observer` synchronously, off the main actor: with the current state (unless `observeCurrent` is
    /// `false`) and then with every later state, in order, one call at a time, until `owner` is deallocated or the
    /// observation is removed; starts a load if there is no usable value yet.
    ///
    /// Each call runs on the thread that changed the state (the task that called ``load()``, the one whose load
    /// finished, …), after the endpoint's lock is released, so `observer` may call back into the endpoint. Calls
    /// never overlap: when states change on several threads at once, one thread makes the calls of all of them, in
    /// order, and the others return at once; so the current state arrives before this method returns unless another
    /// thread is delivering at that moment (then that thread delivers it, still before any later state). A state
    /// changed from inside `observer` is delivered after the call returns. Keep `observer` short, or hand its work
    /// to your own actor or queue.
    ///
    /// - Parameters:
    ///   - owner: The object whose lifetime bounds the observation; held weakly.
    ///   - observeCurrent: Whether to deliver the current state first.
    ///   - observer: Called with each state.
    /// - Returns: A token that removes this observation.
    @discardableResult
    public func observeSynchronously(
        owner: AnyObject, observeCurrent: Bool = true, _ observer: @escaping @Sendable (RequestState<A>) -> Void
    ) -> ObservationToken {
        let id = changeState { core in
            let id = core.makeID()
            core.observers[id] = Observer(owner: WeakOwner(object: owner), callback: .synchronous(observer))
            if observeCurrent {
                let current = core.state
                inlineDeliveries.enqueue { self.deliverSynchronously(current, to: [id]) }
            }
            return id
        }
        loadIfNeeded()
        return ObservationToken(id: id, endpointID: ObjectIdentifier(self)) { [weak self] in
            self?.removeObserver(id: id)
        }
    }

    /// Removes the observation `token` identifies.
    public func removeObserver(_ token: ObservationToken) {
        guard token.endpointID == ObjectIdentifier(self) else { return }
        removeObserver(id: token.id)
    }

    /// Removes every observation of `owner` (and those whose owner is gone).
    public func removeObservers(owner: AnyObject) {
        core.withLock { core in
            core.observers = core.observers.filter { $0.value.owner.object.map { $0 !== owner } ?? false }
        }
    }

    /// How many observations (main-actor and synchronous) are registered whose owner is alive; the ``states``
    /// iterators are not counted.
    public var observerCount: Int {
        core.withLock { core in
            core.observers = core.observers.filter { $0.value.owner.object != nil }
            return core.observers.count
        }
    }

    /// Waits until every state published so far has been delivered to the main-actor observers.
    public func waitForDeliveries() async {
        await deliveries.flush()
    }

    private func removeObserver(id: UInt64) {
        core.withLock { $0.observers[id] = nil }
    }
}
