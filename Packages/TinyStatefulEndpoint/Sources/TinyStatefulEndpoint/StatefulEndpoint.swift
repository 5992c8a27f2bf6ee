import Observation
import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyRequestState

/// One endpoint shared by many observers: it holds the `RequestState` of an `Endpoint<A>` and hands every change
/// to all of its observers, in order.
///
/// Declare it once (in your API type, or get it from an ``EndpointRegistry``) and observe it from every screen that
/// shows the data; they share one request and one state:
///
/// ```swift
/// let todos = StatefulEndpoint(endpoint: api.get(), transport: transport)
/// todos.observe(owner: self) { screen, state in screen.render(state) }
/// ```
///
/// It lives on the main actor and is `Observable`: a SwiftUI view (or `withObservationTracking`) that reads
/// ``state`` or ``value`` updates when they change. Closures observe it with ``observe(owner:_:)-(AnyObject,_)``,
/// async code iterates ``states``. Each change reaches every observer synchronously, on the main actor, in the order
/// the observers were registered; a change made by an observer while it is called reaches everyone after the
/// current one. Only loading and decoding run off the main actor.
///
/// Loading:
/// - ``loadIfNeeded()`` loads when there is no usable value (idle, failed, or older than ``maximumAge``); it joins a
///   load in flight rather than starting another.
/// - ``load()`` always starts a new load and cancels the one in flight, whose answer is then dropped: a stale
///   response never overwrites a newer state.
/// - ``clear()`` cancels the load in flight and goes back to `.idle`.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor public final class StatefulEndpoint<A: Sendable>: Observable {
    /// The endpoint this instance loads.
    public nonisolated let endpoint: Endpoint<A>
    /// How long a loaded value counts as fresh for ``loadIfNeeded()``, on the clock given to `init`; `nil` means
    /// forever.
    public nonisolated let maximumAge: Duration?

    private nonisolated let transport: any HTTPTransport
    private nonisolated let elapsed: @Sendable () -> Duration
    private(set) var current = Refreshable<A>()
    private var loadedAt: Duration?
    private(set) var task: Task<Void, Never>?
    private let registrar = ObservationRegistrar()
    /// `\.state`, made once: making a key path into a generic class costs microseconds.
    private lazy var stateKeyPath = \StatefulEndpoint.state
    var observers: [Observer] = []
    /// States to deliver, each to the observers registered when it happened (how many of them).
    private var deliveries: [(state: RequestState<A>, observers: Int)] = []

    /// One observation: called with each state while its owner lives.
    final class Observer {
        weak var owner: AnyObject?
        var call: @MainActor (AnyObject, RequestState<A>) -> Void = { _, _ in }
    }

    /// Creates a stateful endpoint, from any thread. It loads nothing until it is observed or asked to load.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint to load.
    ///   - transport: The transport every load goes through; the live `URLSessionTransport.shared` by default, so
    ///     TinyHTTP's `StatefulEndpoint(endpoint: api.get())` compiles as it is.
    ///   - maximumAge: How long after it loaded a value is stale, so that ``loadIfNeeded()`` (and a new observer)
    ///     loads again; `nil`, the default, keeps a value until ``load()`` or ``clear()``.
    ///   - clock: The clock `maximumAge` is measured on; inject one in tests.
    public nonisolated init(
        endpoint: Endpoint<A>, transport: any HTTPTransport = URLSessionTransport.shared, maximumAge: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.endpoint = endpoint
        self.transport = transport
        self.maximumAge = maximumAge
        self.elapsed = Self.stopwatch(clock)
    }

    private nonisolated static func stopwatch(_ clock: some Clock<Duration>) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    /// The current state.
    public var state: RequestState<A> {
        registrar.access(self, keyPath: stateKeyPath)
        return current.state
    }

    /// The value of the latest success, kept while a reload runs and after it fails; `nil` before the first success
    /// and after ``clear()``.
    public var value: A? {
        registrar.access(self, keyPath: stateKeyPath)
        return current.value
    }

    /// Loads unless there is a usable state: does nothing while a load is in flight (the caller joins it) or while
    /// a loaded value is fresh; loads when idle, after a failure, or when the value is older than ``maximumAge``.
    public func loadIfNeeded() {
        let isFresh = maximumAge.map { elapsed() - (loadedAt ?? .zero) < $0 } ?? true
        if !current.state.isLoading, !(current.state.isSuccess && isFresh) { load() }
    }

    /// Starts a new load, cancelling the one in flight. Observers see `.loading` (once, even if a load was already
    /// in flight) and then the result of this load only.
    public func load() {
        task?.cancel()
        task = Task { [weak self, endpoint, transport] in
            let result = await Result { @Sendable in try await transport.load(endpoint) }
            guard let self, !Task.isCancelled else { return }  // cancelled: load() or clear() replaced this load
            if case .success = result { loadedAt = elapsed() }
            publish(RequestState(result))
        }
        publish(.loading)
    }

    /// Cancels the load in flight, forgets the last value and goes back to `.idle`.
    public func clear() {
        task?.cancel()
        publish(.idle)
    }

    /// Sets the state and calls every observer with it, unless it is a repeated `.idle` or `.loading`. A state set
    /// while observers are being called is delivered after the current one.
    private func publish(_ state: RequestState<A>) {
        guard !(state.isIdle && current.state.isIdle), !(state.isLoading && current.state.isLoading) else { return }
        registrar.withMutation(of: self, keyPath: stateKeyPath) {
            if state.isIdle { current.reset() } else { current.state = state }
        }
        deliveries.append((state, observers.count))
        guard deliveries.count == 1 else { return }  // a delivery is under way: it delivers this state next
        var ended = false
        while let (state, count) = deliveries.first {
            for observer in observers[..<count] {
                if let owner = observer.owner { observer.call(owner, state) } else { ended = true }
            }
            deliveries.removeFirst()
        }
        if ended { observers.removeAll { $0.owner == nil } }  // releases the closures of ended observations
    }

    deinit { task?.cancel() }
}
