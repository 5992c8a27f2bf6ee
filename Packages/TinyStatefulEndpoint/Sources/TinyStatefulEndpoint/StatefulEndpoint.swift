import Foundation
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
/// the observers were registered; a change made by an observer while it is called (its first call included) reaches
/// everyone after the current one. Only loading and decoding run off the main actor.
///
/// Loading:
/// - ``loadIfNeeded()`` loads when there is no usable value (idle, failed, or older than ``maximumAge``); it joins a
///   load in flight rather than starting another.
/// - ``load()`` always starts a new load and cancels the one in flight, whose answer is then dropped: a stale
///   response never overwrites a newer state.
/// - ``clear()`` cancels the load in flight and goes back to `.idle`.
///
/// Staying fresh:
/// - A load of a `GET` or `HEAD` after a good response that carried an `ETag` or `Last-Modified` asks the server
///   whether it changed (`If-None-Match`, `If-Modified-Since`); a `304 Not Modified` keeps the value without decoding
///   anything, renews its freshness and is delivered again as a success (one with another `ETag` names another
///   representation: the request is sent again without validators). Other methods reload plainly.
/// - Without ``maximumAge``, the response's `Cache-Control: max-age` or `Expires` says how long a value is fresh, and
///   `no-cache` or `no-store` makes every ``loadIfNeeded()`` revalidate.
/// - With a ``ResponseStore``, the last good response survives restarts: a new instance offers it at once as a stale
///   success while the first load revalidates it.
/// - After a failed reload, ``value`` still holds the last good value beside the failure in ``state``.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor public final class StatefulEndpoint<A: Sendable>: Observable {
    /// The endpoint this instance loads.
    public nonisolated let endpoint: Endpoint<A>
    /// How long a loaded value counts as fresh for ``loadIfNeeded()``, on the clock given to `init`; `nil`: as the
    /// response's `Cache-Control` or `Expires` says, until ``load()`` when it says nothing.
    public nonisolated let maximumAge: Duration?

    private nonisolated let transport: any HTTPTransport
    private nonisolated let clock: any Clock<Duration>
    private nonisolated let elapsed: @Sendable () -> Duration
    private nonisolated let store: (any ResponseStore)?
    /// How long a load goes on after its last observer went away; `nil`: to its end.
    nonisolated let unobservedLoadGracePeriod: Duration?
    /// Reads the stored response, if there is a store, until ``clear()``.
    private var restored: Task<Kept<A>?, Never>?
    /// The current state.
    private(set) var current = RequestState<A>.idle
    /// The last good value, with its response and freshness: what ``value`` returns, and what the next load
    /// revalidates.
    private var kept: Kept<A>?
    /// The load in flight (its state may be a stored value's success meanwhile); `nil` when none is.
    private(set) var task: Task<Void, Never>? { didSet { graceCheck?.cancel() } }
    /// The number of observations at which `add` drops the ended ones.
    var pruneAt = 16
    /// The grace period's check of the load in flight, which ends with it: no task sleeps on after a load.
    private var graceCheck: Task<Void, Never>?
    private let registrar = ObservationRegistrar()
    /// `\.state`, made once: making a key path into a generic class costs microseconds.
    private lazy var stateKeyPath = \StatefulEndpoint.state
    var observers: [Observer] = []
    /// How many observations were added so far: the grace period's checks tell by it whether one came, and whether
    /// one came and went.
    var joins = 0
    /// States sent while a delivery is under way, each to go to the observers registered when it was sent, after the
    /// current one; whether one is under way.
    var (deliveries, delivering) = ([(state: RequestState<A>, observers: Range<Int>)](), false)
    /// The saves to the store: how many began, how many run, and the newest answer whose save ended while others ran.
    private var saves = (begun: 0, running: 0, newest: (serial: Int, body: Data, response: HTTPURLResponse)?.none)

    /// One observation: called with each state while its owner lives.
    @MainActor final class Observer {
        weak var owner: AnyObject?
        var call: @MainActor (AnyObject, RequestState<A>) -> Void = { _, _ in }
        /// Called once when the observation ends: cancelled, or dropped after its owner went.
        var onEnd: (@MainActor () -> Void)?

        /// Ends the observation: the closures are released now, `onEnd` called once.
        @MainActor func end() {
            (owner, call) = (nil, { _, _ in })
            onEnd.take()?()
        }
    }

    /// Creates a stateful endpoint, from any thread. It loads nothing until it is observed or asked to load.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint to load.
    ///   - transport: The transport every load goes through; the live `URLSessionTransport.shared` by default, so
    ///     TinyHTTP's `StatefulEndpoint(endpoint: api.get())` compiles as it is.
    ///   - maximumAge: How long after it loaded a value is stale, so that ``loadIfNeeded()`` (and a new observer)
    ///     loads again; `nil`, the default: the response's `Cache-Control` or `Expires` decides, and a value whose
    ///     response says nothing is kept until ``load()`` or ``clear()``.
    ///   - store: Where the last good response is kept across launches; `nil`, the default, keeps it in memory only.
    ///   - cancelsUnobservedLoadAfter: When set, a load in flight is cancelled once at least this long (at most twice
    ///     this: it is checked at that interval) has passed since its last observer went away, and the state goes
    ///     back to the last value (or `.idle`). A period under 0.1 s counts as 0.1 s, one over about 95 years as 95
    ///     years. `nil`, the default, lets every load finish: a shared endpoint's next screen, or a prefetch with no
    ///     observer at all, gets the answer.
    ///   - clock: The clock `maximumAge` and the grace period are measured on; inject one in tests.
    public nonisolated init(
        endpoint: Endpoint<A>, transport: any HTTPTransport = URLSessionTransport.shared, maximumAge: Duration? = nil,
        store: (any ResponseStore)? = nil, cancelsUnobservedLoadAfter: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        (self.endpoint, self.transport, self.maximumAge, self.store) = (endpoint, transport, maximumAge, store)
        // Checked at that interval: one of no time would check again and again on the main actor.
        // At most about 95 years: `ContinuousClock` traps on a sleep of more nanoseconds than an `Int64` holds.
        unobservedLoadGracePeriod = cancelsUnobservedLoadAfter.map {
            min(max($0, .milliseconds(100)), .seconds(3_000_000_000))
        }
        self.clock = clock
        elapsed = stopwatch(clock)
        let restored = store.map { store in Task { await endpoint.restore(from: store) } }
        self.restored = restored
        if let restored { Task { @MainActor [weak self] in await restored.value.map { self?.offer($0) } } }
    }

    /// The current state. With a `store`, a load that starts without a value shows the stored one as `.success`
    /// while its request runs (`isLoading` is then `false`), and then its answer.
    public var state: RequestState<A> {
        registrar.access(self, keyPath: stateKeyPath)
        return current
    }

    /// The value of the latest success, kept while a reload runs and after it fails; `nil` before the first success
    /// and after ``clear()``.
    public var value: A? {
        registrar.access(self, keyPath: stateKeyPath)
        return kept?.value
    }

    /// Loads unless there is a usable state: does nothing while a load is in flight (the caller joins it) or while
    /// a loaded value is fresh; loads when idle, after a failure, or when the value is older than ``maximumAge``.
    public func loadIfNeeded() {
        if task == nil, !(current.isSuccess && kept?.isFresh(now: elapsed()) == true) { load() }
    }

    /// Starts a new load, cancelling the one in flight. Observers see `.loading` (once, even if a load was already
    /// in flight) and then the result of this load only.
    public func load() {
        self.task?.cancel()
        let task = Task { [weak self, known = kept, endpoint, transport, restored, store, maximumAge, elapsed] in
            let stored = known == nil ? await restored?.value : nil
            if let stored { self?.offer(stored) }  // a load without a value shows the stored one first
            guard !Task.isCancelled else { return }  // cleared or replaced while the store was read: send nothing
            let result = await Result { @Sendable in
                try await endpoint.fetch(
                    revalidating: known ?? stored, maximumAge: maximumAge, with: transport, now: elapsed)
            }
            guard let self, !Task.isCancelled else { return }  // cancelled: load() or clear() replaced this load
            if case .success((let fetched, var body)) = result {
                // Stored before it is seen. After a 304 the stored body goes back with the updated header fields
                // (RFC 9111 §4.3.4), so that the store drops it when they now say `no-store`; only the body of the
                // response the 304 confirmed (a failed write, or another instance, can have left another one).
                if body == nil, let store, let sent = (known ?? stored)?.response {
                    body = await store.restore(for: endpoint.request) { $1.hasValidators(of: sent) ? $0 : nil } ?? nil
                    // Replaced meanwhile: a newer load's save may have begun, and a save begun later counts as newer.
                    guard !Task.isCancelled else { return }
                }
                if let body, let store { await save(body, fetched.response, to: store) }
                guard !Task.isCancelled else { return }  // `task` belongs to the load that cancelled this
                kept = fetched
            }
            self.task = nil
            publish(RequestState(result.map { $0.kept.value }))
        }
        self.task = task
        defer { publish(.loading) }  // after the grace check is in place: an observer may start another load
        guard let grace = unobservedLoadGracePeriod else { return }
        // Checks every `grace` while this load runs, and cancels it once observers were there and none is left at two
        // checks in a row with no observation added between them: gone for at least `grace` (at most twice that).
        // Observers were there when one was live at the start, or one was added since (`joins` grew).
        let (observed, joinsAtStart) = (observers.contains { $0.owner != nil }, joins)
        graceCheck = Task { [weak self, clock] in
            var goneAtJoins: Int?  // `joins` at the last check, when that found no observer
            while (try? await clock.sleep(for: grace)) != nil, let self, self.task == task {
                let gone = (observed || joins != joinsAtStart) && observers.allSatisfy { $0.owner == nil }
                if gone, goneAtJoins == joins {
                    task.cancel()
                    self.task = nil  // ends this loop at its next check
                    publish(kept.map { .success($0.value) } ?? .idle)
                }
                goneAtJoins = gone ? joins : nil
            }
        }
    }

    /// Cancels the load in flight, forgets the last value and goes back to `.idle`. A stored value is not offered
    /// again by this instance (the store keeps it).
    public func clear() {
        task?.cancel()
        (kept, task, restored) = (nil, nil, nil)
        publish(.idle)
    }

    /// Saves an answer to `store`, then the answer of the newest save begun whose save ended meanwhile, again: a
    /// replaced load's save that ends last must not leave its older answer in the store. Saves are not queued: one
    /// that never ends holds none. (Saves begin in the order of their loads: a replaced load begins none.)
    private func save(_ body: Data, _ response: HTTPURLResponse, to store: any ResponseStore) async {
        saves.begun += 1
        saves.running += 1
        var (serial, body, response) = (saves.begun, body, response)
        await store.save(body, response, for: endpoint.request)
        while let newer = saves.newest, newer.serial > serial {
            (serial, body, response) = newer
            await store.save(body, response, for: endpoint.request)
        }
        saves.running -= 1
        saves.newest = saves.running == 0 ? nil : (serial, body, response)
    }

    /// Shows a stored value, unless a load has answered or ``clear()`` was called: a stale success, revalidated by
    /// the next load.
    private func offer(_ stored: Kept<A>) {
        guard kept == nil, restored != nil else { return }
        kept = stored
        publish(.success(stored.value))
    }

    /// Sets the state and calls every observer with it, unless it is a repeated `.idle` or `.loading`. A state set
    /// while observers are being called is delivered after the current one.
    private func publish(_ state: RequestState<A>) {
        guard !(state.isIdle && current.isIdle), !(state.isLoading && current.isLoading) else { return }
        registrar.withMutation(of: self, keyPath: stateKeyPath) { current = state }
        deliver(state)
    }

    /// Hands the observers from `first` on `state`, or queues it while a delivery is under way.
    func deliver(_ state: RequestState<A>, from first: Int = 0) {
        var (state, range) = (state, first..<observers.count)
        guard !delivering else { return deliveries.append((state, range)) }  // delivered after the current one
        // Only states sent during a delivery are queued: queueing each, and emptying the queue of a generic element
        // type, cost about 3,500 instructions a state (callgrind). Delivered states leave the queue in batches, not
        // one by one (`removeFirst()` costs about 4,000): a batch is 32 or more and half the queue or more, so
        // observers sending state after state keep few delivered ones, and the states moved are no more than those
        // taken off the queue: the work stays linear however many states one call sends.
        var (ended, next) = (false, 0)
        delivering = true
        while true {
            for observer in observers[range] {
                if let owner = observer.owner { observer.call(owner, state) } else { ended = true }
            }
            guard next < deliveries.count else { break }
            ((state, range), next) = (deliveries[next], next + 1)
            if next >= 32, next * 2 >= deliveries.count { (deliveries, next) = (Array(deliveries.dropFirst(next)), 0) }
        }
        if !deliveries.isEmpty { deliveries.removeAll(keepingCapacity: deliveries.capacity <= 64) }
        delivering = false
        if ended { removeEnded() }
    }

    /// Drops the ended observations, releasing their closures, then calls their end hooks (after: an `onEnd` may
    /// observe or change this endpoint); not during a delivery, which holds ranges of `observers`.
    func removeEnded() {
        guard !delivering else { return }
        let gone = observers.filter { $0.owner == nil }
        observers.removeAll { $0.owner == nil }
        for observer in gone { observer.end() }
    }

    deinit {
        task?.cancel()
        graceCheck?.cancel()
        // Its observations end with it, their end hooks called (an activity indicator stops): on the main actor right
        // after this, since a `deinit` cannot run main-actor code.
        Task { @MainActor [observers] in for observer in observers { observer.end() } }
    }
}
