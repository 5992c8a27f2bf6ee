import Foundation
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyRequestState

/// One endpoint shared by many observers: it holds the current `RequestState` of an `Endpoint<A>` and fans every
/// change out to all of its observers, in order.
///
/// Declare it once (in your API type, or get it from an ``EndpointRegistry``) and observe it from every screen that
/// shows the data; they share one request and one state:
///
/// ```swift
/// let todos = StatefulEndpoint(endpoint: api.get(), transport: transport)
/// todos.observe(owner: self) { screen, state in screen.render(state) }
/// ```
///
/// Loading:
/// - ``loadIfNeeded()`` loads when there is no usable value yet (idle, failed, or older than `maximumAge`) and
///   otherwise does nothing; it joins a load already in flight rather than starting another.
/// - ``load()`` (also spelled ``reload()``) always starts a new load and cancels the one in flight; a response
///   that arrives for a replaced load is dropped, so a stale response never overwrites a newer state.
/// - ``clear()`` cancels the load in flight and goes back to `.idle`.
///
/// Every method is safe to call from any thread or task: state changes are serialised by a lock, and each change
/// is delivered to each observer exactly once, in the order the changes happened.
public final class StatefulEndpoint<A: Sendable>: Sendable {
    /// The endpoint this instance loads.
    public let endpoint: Endpoint<A>
    /// How long a loaded value counts as fresh for ``loadIfNeeded()``; `nil` means forever.
    public let maximumAge: TimeInterval?

    private let transport: any HTTPTransport
    private let now: @Sendable () -> Date
    let core = Locked(Core())
    let deliveries = MainActorQueue()
    let inlineDeliveries = InlineQueue()

    struct Core {
        var state: RequestState<A> = .idle
        var generation: UInt64 = 0
        var task: Task<Void, Never>?
        var lastSuccess: (value: A, date: Date)?
        var nextID: UInt64 = 0
        var observers: [UInt64: Observer] = [:]
        var streams: [UInt64: AsyncStream<RequestState<A>>.Continuation] = [:]

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }
    }

    struct Observer {
        var owner: WeakOwner
        var callback: Callback
    }

    enum Callback {
        case mainActor(@MainActor (RequestState<A>) -> Void)
        case synchronous(@Sendable (RequestState<A>) -> Void)
    }

    /// Creates a stateful endpoint. It loads nothing until it is observed or asked to load.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint to load.
    ///   - transport: The transport every load goes through; the live `URLSessionTransport.shared` by default, so
    ///     TinyHTTP's `StatefulEndpoint(endpoint: api.get())` compiles as it is.
    ///   - maximumAge: After how many seconds a loaded value is stale, so that ``loadIfNeeded()`` (and a new
    ///     observer) loads again; `nil`, the default, keeps a value until ``load()`` or ``clear()``.
    ///   - now: The clock `maximumAge` is measured on: the wall clock by default; inject one in tests.
    public init(
        endpoint: Endpoint<A>, transport: any HTTPTransport = URLSessionTransport.shared,
        maximumAge: TimeInterval? = nil,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.endpoint = endpoint
        self.transport = transport
        self.maximumAge = maximumAge
        self.now = now
    }

    deinit {
        let (task, streams) = core.withLock { ($0.task, $0.streams.values) }
        task?.cancel()
        for stream in streams { stream.finish() }
    }

    /// The current state.
    public var state: RequestState<A> { core.withLock { $0.state } }

    /// The value of the last successful load, kept while a reload is loading or after it failed; `nil` before the
    /// first success and after ``clear()``.
    public var lastValue: A? { core.withLock { $0.lastSuccess?.value } }

    /// When the last successful load finished, on the injected clock.
    public var lastLoadDate: Date? { core.withLock { $0.lastSuccess?.date } }

    /// Loads unless there is a usable state: does nothing while a load is in flight (the caller joins it) or while
    /// a loaded value is fresh; loads when idle, after a failure, or when the value is older than ``maximumAge``.
    public func loadIfNeeded() {
        let now = now()
        let replaced = changeState { core in needsLoad(core, now: now) ? startLoad(&core) : nil }
        replaced?.cancel()
    }

    /// Starts a new load, cancelling the one in flight. Observers see `.loading` (once, even if a load was already
    /// in flight) and then the result of this load only.
    public func load() {
        let replaced = changeState { startLoad(&$0) }
        replaced?.cancel()
    }

    /// Starts a new load, cancelling the one in flight: the same as ``load()``.
    public func reload() { load() }

    /// Cancels the load in flight, forgets the last value and goes back to `.idle`.
    public func clear() {
        let replaced = changeState { core in
            core.generation += 1
            defer { core.task = nil }
            core.lastSuccess = nil
            publish(.idle, in: &core)
            return core.task
        }
        replaced?.cancel()
    }

    private func needsLoad(_ core: Core, now: Date) -> Bool {
        switch core.state {
        case .idle, .failure: return true
        case .loading: return false
        case .success:
            guard let maximumAge, let date = core.lastSuccess?.date else { return false }
            return now.timeIntervalSince(date) >= maximumAge
        }
    }

    /// Starts a load of a new generation and returns the load it replaces, for the caller to cancel once the lock
    /// is released (a transport's cancellation handler runs synchronously and must not run under the lock).
    private func startLoad(_ core: inout Core) -> Task<Void, Never>? {
        core.generation += 1
        let generation = core.generation
        let replaced = core.task
        let (endpoint, transport) = (self.endpoint, self.transport)
        core.task = Task { [weak self] in
            let result: Result<A, any Error>
            do {
                result = .success(try await transport.load(endpoint))
            } catch {
                result = .failure(error)
            }
            self?.finish(generation, with: result)
        }
        publish(.loading, in: &core)
        return replaced
    }

    private func finish(_ generation: UInt64, with result: Result<A, any Error>) {
        let date = now()
        changeState { core in
            guard generation == core.generation else { return }  // a newer load or clear() replaced this one
            core.task = nil
            switch result {
            case .success(let value):
                core.lastSuccess = (value, date)
                publish(.success(value), in: &core)
            case .failure(let error):
                publish(.failure(RequestError(error, message: Self.message(for: error))), in: &core)
            }
        }
    }

    /// Runs `body` under the lock, then the synchronous observers' deliveries it queued, outside the lock.
    @discardableResult
    func changeState<Result>(_ body: (inout Core) -> Result) -> Result {
        defer { inlineDeliveries.drain() }
        return core.withLock(body)
    }

    /// Sets the state and queues it for every observer and stream; called with the lock held, so changes are ordered.
    private func publish(_ state: RequestState<A>, in core: inout Core) {
        switch (core.state, state) {
        case (.idle, .idle), (.loading, .loading): return  // not a change
        default: core.state = state
        }
        core.observers = core.observers.filter { $0.value.owner.object != nil }
        var (onMainActor, synchronous): ([UInt64], [UInt64]) = ([], [])
        for (id, observer) in core.observers {
            switch observer.callback {
            case .mainActor: onMainActor.append(id)
            case .synchronous: synchronous.append(id)
            }
        }
        if !onMainActor.isEmpty {
            onMainActor.sort()
            deliveries.enqueue { [ids = onMainActor] in self.deliver(state, to: ids) }
        }
        if !synchronous.isEmpty {
            synchronous.sort()
            inlineDeliveries.enqueue { [ids = synchronous] in self.deliverSynchronously(state, to: ids) }
        }
        for stream in core.streams.values { stream.yield(state) }
    }

    /// Calls each main-actor observer still registered (and whose owner is alive) with `state`.
    @MainActor private func deliver(_ state: RequestState<A>, to ids: [UInt64]) {
        for id in ids {
            if case .mainActor(let callback) = activeCallback(id) { callback(state) }
        }
    }

    /// Calls each synchronous observer still registered (and whose owner is alive) with `state`.
    func deliverSynchronously(_ state: RequestState<A>, to ids: [UInt64]) {
        for id in ids {
            if case .synchronous(let callback) = activeCallback(id) { callback(state) }
        }
    }

    /// The callback of observer `id` if it is still registered and its owner alive; drops it if its owner is gone.
    private func activeCallback(_ id: UInt64) -> Callback? {
        core.withLock { core in
            guard let observer = core.observers[id] else { return nil }
            guard observer.owner.object != nil else {
                core.observers[id] = nil
                return nil
            }
            return observer.callback
        }
    }

    private static func message(for error: any Error) -> String {
        error is any LocalizedError ? error.localizedDescription : String(describing: error)
    }
}
