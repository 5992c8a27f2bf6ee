import TinyHTTPTransport

#if canImport(UIKit) && !os(watchOS)
    import UIKit

    /// A spinner centred over a view while a load runs: the standard activity indicator.
    @MainActor
    private final class OverlayActivityIndicator: ActivityIndicator {
        private weak var view: UIView?
        private let spinner = UIActivityIndicatorView(style: .large)

        init(view: UIView) { self.view = view }

        /// Adds the spinner to the middle of the view and starts it.
        func startActivity() {
            guard spinner.superview == nil, let view else { return }
            spinner.center = CGPoint(x: view.bounds.midX, y: view.bounds.midY)
            spinner.autoresizingMask = [
                .flexibleTopMargin, .flexibleBottomMargin, .flexibleLeftMargin, .flexibleRightMargin,
            ]
            view.addSubview(spinner)
            spinner.startAnimating()
        }

        /// Stops and removes the spinner.
        func stopActivity() { spinner.removeFromSuperview() }
    }
#endif

extension EndpointLoadingDefaults {
    /// The live `URLSession` transport; on UIKit platforms an overlay spinner on a `UIViewController`'s view and an
    /// alert for errors, elsewhere no activity and errors ignored.
    public static var standard: EndpointLoadingDefaults {
        var defaults = EndpointLoadingDefaults(transport: URLSessionTransport.shared)
        #if canImport(UIKit) && !os(watchOS)
            defaults.activityIndicator = { ($0 as? UIViewController).map { OverlayActivityIndicator(view: $0.view) } }
            defaults.errorHandler = { controller, error in
                let alert = UIAlertController(title: nil, message: error.localizedDescription, preferredStyle: .alert)
                alert.addAction(UIAlertAction(title: "OK", style: .default))
                (controller as? UIViewController)?.present(alert, animated: true)
            }
        #endif
        return defaults
    }
}
