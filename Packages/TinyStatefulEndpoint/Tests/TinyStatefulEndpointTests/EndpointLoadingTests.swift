import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport
import TinyMocks
import TinyRequestState

@testable import TinyStatefulEndpoint

/// Records when activity was started and stopped.
@MainActor final class FakeActivityIndicator: ActivityIndicator {
    var events: [String] = []
    var isShowing: Bool { events.last == "start" }
    func startActivity() { events.append("start") }
    func stopActivity() { events.append("stop") }
}

/// What the default hooks of a controller saw.
@MainActor final class DefaultHooks {
    let indicator = FakeActivityIndicator()
    var errors: [String] = []
}

/// A controller of no particular UI framework.
@MainActor final class TodosController: EndpointLoading {
    let hooks = DefaultHooks()
    let transport: any HTTPTransport
    var texts: [String] = []

    init(transport: any HTTPTransport) { self.transport = transport }

    var endpointLoadingDefaults: EndpointLoadingDefaults {
        var defaults = EndpointLoadingDefaults(transport: transport)
        defaults.activityIndicator = { [hooks] _ in hooks.indicator }
        defaults.errorHandler = { [hooks] _, error in hooks.errors.append("\(error)") }
        return defaults
    }
}

/// A mock whose every request fails as if the server could not be reached.
func unreachableMock() -> MockTransport {
    let mock = MockTransport()
    mock.register(.get, "/text", .failure(URLError(.cannotConnectToHost)))
    return mock
}

@Suite(.timeLimit(.minutes(1))) struct EndpointLoadingTests {
    @MainActor @Test func loadShowsActivityAndDeliversTheValue() async {
        let controller = TodosController(transport: numberedMock())
        await controller.load(endpoint: textEndpoint()) { controller.texts.append($0) }.value
        #expect(controller.texts == ["v1"])
        #expect(controller.hooks.indicator.events == ["start", "stop"])
        #expect(controller.hooks.errors.isEmpty)
    }

    @MainActor @Test func loadErrorsGoToTheDefaultErrorHandler() async {
        let controller = TodosController(transport: unreachableMock())
        await controller.load(endpoint: textEndpoint()) { controller.texts.append($0) }.value
        #expect(controller.texts.isEmpty)
        #expect(controller.hooks.errors.count == 1)
        #expect(controller.hooks.indicator.events == ["start", "stop"])
    }

    @MainActor @Test func perCallHooksReplaceTheDefaults() async {
        let controller = TodosController(transport: unreachableMock())
        let indicator = FakeActivityIndicator()
        var errors: [any Error] = []
        await controller.load(endpoint: textEndpoint(), activityIndicator: indicator, onError: { errors.append($0) }) {
            controller.texts.append($0)
        }.value
        #expect((errors.first as? HTTPTransportError)?.code == .cannotConnect)
        #expect(indicator.events == ["start", "stop"])
        #expect(controller.hooks.indicator.events.isEmpty)
        #expect(controller.hooks.errors.isEmpty)
    }

    @MainActor @Test func aCancelledLoadCallsNoHandlerAndStopsTheActivity() async {
        let controller = TodosController(transport: numberedMock(TestClock(opened: 0)))
        let task = controller.load(endpoint: textEndpoint()) { controller.texts.append($0) }
        task.cancel()
        await task.value
        #expect(controller.texts.isEmpty)
        #expect(controller.hooks.errors.isEmpty)
        #expect(controller.hooks.indicator.events == ["start", "stop"])
    }

    @MainActor @Test func observeShowsActivityWhileLoadingAndDeliversEveryValue() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        let controller = TodosController(transport: unreachableMock())
        controller.observe(endpoint: endpoint) { controller, text in controller.texts.append(text) }
        await waitUntil(endpoint) { $0 == .success("v1") }
        endpoint.load()
        await waitUntil(endpoint) { $0 == .success("v2") }
        #expect(controller.texts == ["v1", "v2"])
        #expect(controller.hooks.indicator.events == ["start", "stop", "start", "stop"])
    }

    @MainActor @Test func cancellingTheTokenWhileLoadingTurnsTheActivityOff() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock(TestClock(opened: 0)))
        let controller = TodosController(transport: unreachableMock())
        let token = controller.observe(endpoint: endpoint) { controller, text in controller.texts.append(text) }
        #expect(controller.hooks.indicator.isShowing)
        token.cancel()
        #expect(controller.hooks.indicator.events == ["start", "stop"])
        endpoint.clear()
        token.cancel()
        #expect(controller.hooks.indicator.events == ["start", "stop"])  // stopped once, and nothing after
    }

    @MainActor @Test func observeSendsFailuresToTheErrorHandlerWithTheTypedError() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: unreachableMock())
        let controller = TodosController(transport: unreachableMock())
        var errors: [any Error] = []
        controller.observe(endpoint: endpoint, onError: { errors.append($0) }) { controller.texts.append($0) }
        await waitUntil(endpoint) { $0.isFailure }
        #expect(controller.texts.isEmpty)
        #expect((errors.first as? HTTPTransportError)?.code == .cannotConnect)
        #expect(controller.hooks.errors.isEmpty)
        #expect(controller.hooks.indicator.events == ["start", "stop"])
    }

    @MainActor @Test func anObservingControllerIsNotKeptAliveByTheEndpoint() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        var controller: TodosController? = TodosController(transport: unreachableMock())
        weak let weakController = controller
        controller?.observe(endpoint: endpoint) { controller, text in controller.texts.append(text) }
        await waitUntil(endpoint) { $0 == .success("v1") }
        #expect(controller?.texts == ["v1"])
        controller = nil
        #expect(weakController == nil)
    }

    /// EndpointLoading.swift `observe(endpoint:)`: a controller that is its own activity indicator (a common UIKit
    /// pattern) was kept by the indicator its observation holds, so the endpoint kept it alive for good, and a
    /// registry's endpoint went on calling a screen that was gone.
    @MainActor @Test func aControllerThatIsItsOwnIndicatorIsNotKeptAliveByTheEndpoint() async {
        final class Screen: EndpointLoading, ActivityIndicator {
            let transport: any HTTPTransport
            var events: [String] = []
            init(transport: any HTTPTransport) { self.transport = transport }
            var endpointLoadingDefaults: EndpointLoadingDefaults { EndpointLoadingDefaults(transport: transport) }
            func startActivity() { events.append("start") }
            func stopActivity() { events.append("stop") }
        }
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: numberedMock())
        var screen: Screen? = Screen(transport: numberedMock())
        weak let released = screen
        screen?.observe(endpoint: endpoint, activityIndicator: screen) { _, _ in }
        await waitUntil(endpoint) { $0 == .success("v1") }
        #expect(screen?.events == ["start", "stop"])
        screen = nil
        #expect(released == nil)
    }

    @MainActor @Test func theStandardDefaultsShowNoActivityOffUIKit() {
        final class Plain: EndpointLoading {}
        let plain = Plain()
        #if !canImport(UIKit) || os(watchOS)
            #expect(plain.endpointLoadingDefaults.activityIndicator(plain) == nil)
        #endif
        plain.endpointLoadingDefaults.errorHandler(plain, HTTPTransportError(.timedOut))
    }
}
