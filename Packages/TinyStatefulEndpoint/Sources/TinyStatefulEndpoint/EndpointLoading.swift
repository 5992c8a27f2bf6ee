import TinyEndpoint
import TinyHTTPTransport
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
    /// Makes the activity indicator for a controller when a call passes none; `nil` shows no activity.
    public var activityIndicator: @MainActor @Sendable (_ controller: AnyObject) -> (any ActivityIndicator)?
    /// Handles an error for a controller when a call passes no `onError`.
    public var errorHandler: @MainActor @Sendable (_ controller: AnyObject, _ error: any Error) -> Void

    /// Creates defaults; by default no activity is shown and errors are ignored.
    public init(
        transport: any HTTPTransport,
        activityIndicator: @escaping @MainActor @Sendable (_ controller: AnyObject) -> (any ActivityIndicator)? = {
            _ in nil
        },
        errorHandler: @escaping @MainActor @Sendable (_ controller: AnyObject, _ error: any Error) -> Void = { _, _ in }
    ) {
        self.transport = transport
        self.activityIndicator = activityIndicator
        self.errorHandler = errorHandler
    }
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
            let result: Result<A, any Error>
            do {
                result = .success(try await defaults.transport.load(endpoint))
            } catch {
                result = .failure(error)
            }
            indicator?.stopActivity()
            guard !Task.isCancelled else { return }
            switch result {
            case .success(let value): onSuccess(value)
            case .failure(let error): onError(error)
            }
        }
    }

    /// Observes `endpoint` for as long as `self` lives: shows activity while it loads, calls `onSuccess` with
    /// each value and `onError` with each failure, on the main actor. Starts a load if there is no value yet.
    ///
    /// The endpoint keeps `onSuccess` and `onError` until `self` is deallocated: capture `[weak self]` in them, or
    /// use the overload whose `onSuccess` takes `(Self, A)`, which hands `self` to the closure.
    ///
    /// - Returns: A token that ends the observation early.
    @discardableResult
    public func observe<A: Sendable>(
        endpoint: StatefulEndpoint<A>, activityIndicator: (any ActivityIndicator)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil, onSuccess: @escaping @MainActor (A) -> Void
    ) -> ObservationToken {
        let defaults = endpointLoadingDefaults
        let indicator = activityIndicator ?? defaults.activityIndicator(self)
        let onError = onError ?? { [weak self] error in if let self { defaults.errorHandler(self, error) } }
        var isShowingActivity = false
        return endpoint.observe(owner: self) { state in
            let isLoading = state.isLoading
            if isLoading != isShowingActivity {
                isShowingActivity = isLoading
                if isLoading { indicator?.startActivity() } else { indicator?.stopActivity() }
            }
            switch state {
            case .idle, .loading: break
            case .success(let value): onSuccess(value)
            case .failure(let error): onError(error.underlyingError ?? error)
            }
        }
    }

    /// Like the overload whose `onSuccess` takes only the value, but hands `self` to `onSuccess`, so the closure
    /// needs no reference to it:
    ///
    /// ```swift
    /// observe(endpoint: todos) { controller, items in controller.show(items) }
    /// ```
    @discardableResult
    public func observe<A: Sendable>(
        endpoint: StatefulEndpoint<A>, activityIndicator: (any ActivityIndicator)? = nil,
        onError: (@MainActor (any Error) -> Void)? = nil, onSuccess: @escaping @MainActor (Self, A) -> Void
    ) -> ObservationToken {
        observe(endpoint: endpoint, activityIndicator: activityIndicator, onError: onError) { [weak self] value in
            if let self { onSuccess(self, value) }
        }
    }
}
