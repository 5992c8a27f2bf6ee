import TinyEndpoint
@_spi(TinyKit) import TinyHTTPTransport
import TinyRequestState

/// Something that shows that a load is running: a spinner, an overlay, a status bar indicator.
@MainActor
public protocol ActivityIndicator: AnyObject {
    /// Shows the activity.
    func startActivity()
    /// Hides the activity.
    func stopActivity()
}

/// The transport, activity indication and error handling that ``EndpointLoading`` uses when a call passes none.
///
/// A plain value, not global state: a conforming type returns the defaults it wants from
/// ``EndpointLoading/endpointLoadingDefaults``. For app-wide defaults, declare them once and refine the protocol:
///
/// ```swift
/// protocol AppEndpointLoading: EndpointLoading {}
/// extension AppEndpointLoading {
///     var endpointLoadingDefaults: EndpointLoadingDefaults { .app }  // your `static let app`
/// }
/// ```
public struct EndpointLoadingDefaults: Sendable {
    /// The transport ``EndpointLoading/load(endpoint:activityIndicator:onError:onSuccess:)`` loads with.
    public var transport: any HTTPTransport
    /// Makes the activity indicator for a controller when a call passes none; `nil`, the default, shows no activity.
    public var activityIndicator: @MainActor @Sendable (AnyObject) -> (any ActivityIndicator)? = { _ in nil }
    /// Handles an error for a controller when a call passes no `onError`; by default errors are ignored.
    public var errorHandler: @MainActor @Sendable (_ controller: AnyObject, any Error) -> Void = { _, _ in }

    /// Creates defaults that load through `transport`, show no activity and ignore errors; set
    /// ``activityIndicator`` and ``errorHandler`` to change that.
    public init(transport: any HTTPTransport) { self.transport = transport }
}

/// Loading and observing endpoints from a controller of any kind, TinyHTTP style, with activity indication and
/// error handling that are on by default and can be replaced per call.
///
/// ```swift
/// final class TodosController: EndpointLoading {
///     func start() {
///         observe(endpoint: todos) { controller, items in controller.show(items) }
///     }
/// }
/// ```
///
/// On UIKit platforms the ``EndpointLoadingDefaults/standard`` defaults show an overlay spinner on a
/// `UIViewController`'s view and present errors in an alert; elsewhere they show nothing and ignore errors.
@MainActor
public protocol EndpointLoading: AnyObject {
    /// What a call uses when it passes no transport, activity indicator or error handler; by default
    /// ``EndpointLoadingDefaults/standard``.
    var endpointLoadingDefaults: EndpointLoadingDefaults { get }
}

extension EndpointLoading {
    /// ``EndpointLoadingDefaults/standard``.
    public var endpointLoadingDefaults: EndpointLoadingDefaults { .standard }

    /// Loads `endpoint` once, showing activity while it runs, and calls `onSuccess` or `onError` on the main actor.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint to load, with the transport of ``endpointLoadingDefaults``.
    ///   - activityIndicator: Shown while loading; `nil` uses the default's.
    ///   - onError: Called with the error; `nil` uses the default error handler.
    ///   - onSuccess: Called with the value.
    /// - Returns: The task of the load; cancel it to abandon the load (then neither handler is called).
    @discardableResult
    public func load<A: Sendable>(
        endpoint: Endpoint<A>, activityIndicator: (any ActivityIndicator)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil, onSuccess: @escaping @MainActor (A) -> Void
    ) -> Task<Void, Never> {
        let defaults = endpointLoadingDefaults
        let indicator = activityIndicator ?? defaults.activityIndicator(self)
        let onError = onError ?? { [weak self] error in if let self { defaults.errorHandler(self, error) } }
        indicator?.startActivity()
        return Task {
            let result = await Result { @Sendable in try await defaults.transport.load(endpoint) }
            indicator?.stopActivity()
            guard !Task.isCancelled else { return }
            do { onSuccess(try result.get()) } catch { onError(error) }
        }
    }

    /// Observes `endpoint` for as long as `self` lives: shows activity while it loads, calls `onSuccess` with
    /// each value and `onError` with each failure, on the main actor. Starts a load unless the value is fresh (see
    /// `StatefulEndpoint.loadIfNeeded()`).
    ///
    /// The first call hands the endpoint's kept value, if any, even while it reloads or after a failed reload. A
    /// failure there already is not presented: observing retries it at once, and the retry's outcome is.
    ///
    /// The observation is bound to `self` (see ``ObservationToken``): the endpoint keeps `onSuccess` and `onError`
    /// until `self` is deallocated, so capture `[weak self]` in them, or use the overload whose `onSuccess` takes
    /// `(Self, A)`, which hands `self` to the closure. `self` can be its own `activityIndicator`; another indicator
    /// is kept as long as the observation, so it must not hold `self` strongly.
    ///
    /// - Returns: A token that ends the observation early; cancelling it while a load runs stops the activity, as
    ///   releasing `self` does (then once the endpoint lets go of the observation: at its next change, or when a
    ///   later observation releases the ended ones).
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @discardableResult
    public func observe<A: Sendable>(
        endpoint: StatefulEndpoint<A>, activityIndicator: (any ActivityIndicator)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil, onSuccess: @escaping @MainActor (A) -> Void
    ) -> ObservationToken {
        observe(endpoint: endpoint, activityIndicator: activityIndicator, onError: onError) { onSuccess($1) }
    }

    /// Like the overload whose `onSuccess` takes only the value, but hands `self` to `onSuccess`, so the closure
    /// needs no reference to it:
    ///
    /// ```swift
    /// observe(endpoint: todos) { controller, items in controller.show(items) }
    /// ```
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    @discardableResult
    public func observe<A: Sendable>(
        endpoint: StatefulEndpoint<A>, activityIndicator: (any ActivityIndicator)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil, onSuccess: @escaping @MainActor (Self, A) -> Void
    ) -> ObservationToken {
        let defaults = endpointLoadingDefaults
        // `self` as its own indicator is held weakly: the endpoint keeps this observation until `self` is gone.
        let chosen = activityIndicator ?? defaults.activityIndicator(self)
        let other = chosen === self ? nil : chosen
        weak let own = chosen === self ? chosen : nil
        var isShowingActivity = false
        func showActivity(_ show: Bool) {
            guard show != isShowingActivity else { return }
            isShowingActivity = show
            if show { (other ?? own)?.startActivity() } else { (other ?? own)?.stopActivity() }
        }
        // The first call hands the kept value even with a failure: a screen opened after a failed reload shows the
        // last good value too.
        var (kept, greeting) = (endpoint.value, true)
        // Ended by `cancel()` or, once `self` is gone, when the endpoint drops the observation: the activity stops.
        return endpoint.add(owner: self, loading: true, onEnd: { showActivity(false) }) {
            [weak endpoint] controller, state in
            // A stored value shown while its load revalidates it is a `.success`, the load still in flight.
            showActivity(state.isLoading || endpoint?.task != nil)
            if let value = state.value ?? kept { onSuccess(unsafeDowncast(controller, to: Self.self), value) }
            defer { (kept, greeting) = (nil, false) }
            // A failure the first call shows is being retried already (observing reloads after one): not presented.
            guard !greeting, let error = state.error.map({ $0.underlyingError ?? $0 }) else { return }
            if let onError { onError(error) } else { defaults.errorHandler(controller, error) }
        }
    }
}
