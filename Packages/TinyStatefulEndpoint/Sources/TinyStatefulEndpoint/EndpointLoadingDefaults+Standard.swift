import TinyHTTPTransport

#if canImport(UIKit) && !os(watchOS)
    import UIKit
#endif

extension EndpointLoadingDefaults {
    /// The live `URLSession` transport; on UIKit platforms an overlay spinner on a `UIViewController`'s view and an
    /// alert for errors, elsewhere no activity and errors ignored.
    public static var standard: EndpointLoadingDefaults {
        #if canImport(UIKit) && !os(watchOS)
            EndpointLoadingDefaults(
                transport: URLSessionTransport.shared,
                activityIndicator: { controller in
                    guard let controller = controller as? UIViewController else { return nil }
                    return OverlayActivityIndicator(view: controller.view)
                },
                errorHandler: { controller, error in
                    guard let controller = controller as? UIViewController else { return }
                    let alert = UIAlertController(
                        title: nil, message: error.localizedDescription, preferredStyle: .alert)
                    alert.addAction(UIAlertAction(title: "OK", style: .default))
                    controller.present(alert, animated: true)
                })
        #else
            EndpointLoadingDefaults(transport: URLSessionTransport.shared)
        #endif
    }
}

#if canImport(UIKit) && !os(watchOS)
    /// A spinner centred over a view while a load runs.
    @MainActor
    public final class OverlayActivityIndicator: ActivityIndicator {
        private weak var view: UIView?
        private var spinner: UIActivityIndicatorView?

        /// Creates an indicator for `view`.
        public init(view: UIView) { self.view = view }

        /// Adds the spinner to the view and starts it.
        public func startActivity() {
            guard spinner == nil, let view else { return }
            let spinner = UIActivityIndicatorView(style: .large)
            spinner.translatesAutoresizingMaskIntoConstraints = false
            view.addSubview(spinner)
            NSLayoutConstraint.activate([
                spinner.centerXAnchor.constraint(equalTo: view.centerXAnchor),
                spinner.centerYAnchor.constraint(equalTo: view.centerYAnchor),
            ])
            spinner.startAnimating()
            self.spinner = spinner
        }

        /// Stops and removes the spinner.
        public func stopActivity() {
            spinner?.removeFromSuperview()
            spinner = nil
        }
    }
#endif
