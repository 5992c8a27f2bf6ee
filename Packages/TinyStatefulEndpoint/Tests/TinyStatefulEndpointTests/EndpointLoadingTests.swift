import Foundation
import Testing
import TinyEndpoint
import TinyHTTPTransport
import TinyRequestState

@testable import TinyStatefulEndpoint

/// Counts how often activity was started and stopped.
@MainActor final class CountingIndicator: ActivityIndicator {
    var events: [String] = []
    func startActivity() { events.append("start") }
    func stopActivity() { events.append("stop") }
}

/// What the default hooks of a controller saw.
@MainActor final class DefaultHooks {
    let indicator = CountingIndicator()
    var errors: [String] = []
}

/// A controller of no particular UI framework.
@MainActor final class TodosController: EndpointLoading {
    let hooks = DefaultHooks()
    let transport: any HTTPTransport
    var texts: [String] = []

    init(transport: any HTTPTransport) { self.transport = transport }

    var endpointLoadingDefaults: EndpointLoadingDefaults {
        let hooks = self.hooks
        return EndpointLoadingDefaults(
            transport: transport, activityIndicator: { _ in hooks.indicator },
            errorHandler: { _, error in hooks.errors.append("\(error)") })
    }
}

@MainActor @Suite struct EndpointLoadingTests {
    let failingTransport = StubTransport { _, request in throw HTTPTransportError(.cannotConnect, request: request) }

    @Test func loadShowsActivityAndDeliversTheValue() async {
        let controller = TodosController(transport: StubTransport(numberedResponses))
        await controller.load(endpoint: textEndpoint()) { controller.texts.append($0) }.value
        #expect(controller.texts == ["v1"])
        #expect(controller.hooks.indicator.events == ["start", "stop"])
        #expect(controller.hooks.errors.isEmpty)
    }

    @Test func loadErrorsGoToTheDefaultErrorHandler() async {
        let controller = TodosController(transport: failingTransport)
        await controller.load(endpoint: textEndpoint()) { controller.texts.append($0) }.value
        #expect(controller.texts.isEmpty)
        #expect(controller.hooks.errors.count == 1)
        #expect(controller.hooks.errors.first?.contains("could not connect") == true)
    }

    @Test func perCallHooksReplaceTheDefaults() async {
        let controller = TodosController(transport: failingTransport)
        let indicator = CountingIndicator()
        var errors: [any Error] = []
        await controller.load(endpoint: textEndpoint(), activityIndicator: indicator, onError: { errors.append($0) }) {
            controller.texts.append($0)
        }.value
        #expect(errors.count == 1)
        #expect(indicator.events == ["start", "stop"])
        #expect(controller.hooks.indicator.events.isEmpty)
        #expect(controller.hooks.errors.isEmpty)
    }

    @Test func aCancelledLoadCallsNoHandler() async {
        let gate = Gate()
        let transport = StubTransport { call, request in
            await gate.wait()
            return try await numberedResponses(call, request)
        }
        let controller = TodosController(transport: transport)
        let task = controller.load(endpoint: textEndpoint()) { controller.texts.append($0) }
        task.cancel()
        await gate.open()
        await task.value
        #expect(controller.texts.isEmpty)
        #expect(controller.hooks.indicator.events == ["start", "stop"])
    }

    @Test func observeShowsActivityWhileLoadingAndDeliversEveryValue() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: StubTransport(numberedResponses))
        let controller = TodosController(transport: failingTransport)
        controller.observe(endpoint: endpoint) { controller, text in controller.texts.append(text) }
        await waitUntil(endpoint) { $0 == .success("v1") }
        endpoint.reload()
        await waitUntil(endpoint) { $0 == .success("v2") }
        await endpoint.waitForDeliveries()
        #expect(controller.texts == ["v1", "v2"])
        #expect(controller.hooks.indicator.events == ["start", "stop", "start", "stop"])
    }

    @Test func observeSendsFailuresToTheErrorHandlerWithTheTypedError() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: failingTransport)
        let controller = TodosController(transport: failingTransport)
        var errors: [any Error] = []
        controller.observe(endpoint: endpoint, onError: { errors.append($0) }) { controller.texts.append($0) }
        await waitUntil(endpoint) { if case .failure = $0 { true } else { false } }
        await endpoint.waitForDeliveries()
        #expect(controller.texts.isEmpty)
        #expect((errors.first as? HTTPTransportError)?.code == .cannotConnect)
        #expect(controller.hooks.errors.isEmpty)
    }

    @Test func anObservingControllerIsNotKeptAliveByTheEndpoint() async {
        let endpoint = StatefulEndpoint(endpoint: textEndpoint(), transport: StubTransport(numberedResponses))
        var controller: TodosController? = TodosController(transport: failingTransport)
        weak let weakController = controller
        controller?.observe(endpoint: endpoint) { controller, text in controller.texts.append(text) }
        await waitUntil(endpoint) { $0 == .success("v1") }
        await endpoint.waitForDeliveries()
        #expect(controller?.texts == ["v1"])
        controller = nil
        #expect(weakController == nil)
        #expect(endpoint.observerCount == 0)
    }

    @Test func theStandardDefaultsShowNoActivityOffUIKit() {
        final class Plain: EndpointLoading {}
        let plain = Plain()
        #if !canImport(UIKit) || os(watchOS)
            #expect(plain.endpointLoadingDefaults.activityIndicator(plain) == nil)
        #endif
        plain.endpointLoadingDefaults.errorHandler(plain, HTTPTransportError(.timedOut))
    }
}
