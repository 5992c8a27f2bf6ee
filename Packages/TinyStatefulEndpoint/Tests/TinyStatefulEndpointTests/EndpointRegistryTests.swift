import Foundation
import Testing
import TinyEndpoint

@testable import TinyStatefulEndpoint

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite(.timeLimit(.minutes(1))) struct EndpointRegistryTests {
    let registry = EndpointRegistry(transport: numberedMock())

    func endpoint(
        _ url: String = "https://example.com/text", method: String = "GET", headers: [String: String] = [:],
        body: Data? = nil
    ) -> Endpoint<String> {
        var endpoint = textEndpoint(url)
        endpoint.request.httpMethod = method
        endpoint.request.httpBody = body
        for (name, value) in headers { endpoint.request.setValue(value, forHTTPHeaderField: name) }
        return endpoint
    }

    @Test func theSameRequestGetsTheSameInstanceFromAnyThread() async {
        let first = registry.statefulEndpoint(for: endpoint())
        let all = await withTaskGroup(of: StatefulEndpoint<String>.self) { group in
            for _ in 0..<100 { group.addTask { registry.statefulEndpoint(for: endpoint()) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(all.allSatisfy { $0 === first })
    }

    @Test func requestsThatDifferInAKeyPartGetTheirOwnInstances() {
        let base = registry.statefulEndpoint(for: endpoint())
        let variants = [
            endpoint("https://example.com/text?page=2"),
            endpoint(method: "POST"),
            endpoint(headers: ["Accept": "application/json"]),
            endpoint(headers: ["Authorization": "Bearer a"]),
            endpoint(headers: ["Authorization": "Bearer b"]),
            endpoint(headers: ["Accept": "a", "Authorization": "b"]),
            endpoint(headers: ["Accept": "b", "Authorization": "a"]),
            endpoint(body: Data("x".utf8)),
        ].map { registry.statefulEndpoint(for: $0) }
        #expect(variants.allSatisfy { $0 !== base })
        #expect(Set(variants.map(ObjectIdentifier.init)).count == variants.count)
    }

    @Test func headersOutsideTheKeyAndTheCaseOfNamesAndMethodsDoNotMatter() {
        let base = registry.statefulEndpoint(for: endpoint(headers: ["Authorization": "Bearer a"]))
        #expect(registry.statefulEndpoint(for: endpoint(headers: ["authorization": "Bearer a"])) === base)
        #expect(
            registry.statefulEndpoint(for: endpoint(headers: ["Authorization": "Bearer a", "X-Request-ID": "1"]))
                === base)
        #expect(
            registry.statefulEndpoint(for: endpoint(method: "get", headers: ["Authorization": "Bearer a"])) === base)
    }

    /// EndpointRegistry.swift `key(for:)`: the URL went into the key with its fragment, which is never sent (the
    /// mock's routes and `FileResponseStore` ignore it): `…/text#top` and `…/text` got two instances, so two screens
    /// asking for one request made two loads and held two states.
    @Test func aFragmentDoesNotSplitOneRequest() {
        let base = registry.statefulEndpoint(for: endpoint())
        #expect(registry.statefulEndpoint(for: endpoint("https://example.com/text#top")) === base)
        #expect(registry.statefulEndpoint(for: endpoint("https://example.com/text#")) === base)
        #expect(registry.statefulEndpoint(for: endpoint("https://example.com/text?page=2#top")) !== base)
    }

    /// EndpointRegistry.swift `key(for:)`: a body that failed to encode is no body in the request, so the endpoint
    /// shared the key of the same request sent without one: handed the bodiless instance, it loaded without ever
    /// throwing its encoding error, and sent a request without its body.
    @Test func anUnencodableBodyIsNotTheSameRequestAsNoBody() async throws {
        let url = try #require(URL(string: "https://example.com/items"))
        let bodiless = Endpoint<Void>(json: .post, url: url, headers: ["Content-Type": "application/json"])
        let broken = Endpoint<Void>(json: .post, url: url, body: Double.nan)
        #expect(broken.requestError != nil)
        #expect(broken.request.httpBody == nil)
        let shared = registry.statefulEndpoint(for: bodiless)
        let own = registry.statefulEndpoint(for: broken)
        #expect(own !== shared)
        #expect(registry.statefulEndpoint(for: broken) === own)
    }

    @Test func theSameRequestWithAnotherValueTypeGetsItsOwnInstance() {
        let text = registry.statefulEndpoint(for: endpoint())
        let count = registry.statefulEndpoint(
            for: Endpoint<Int>(request: endpoint().request) { data, _ in .success(data?.count ?? 0) })
        #expect(ObjectIdentifier(text) != ObjectIdentifier(count))
        #expect(registry.statefulEndpoint(for: endpoint()) === text)  // each type keeps its own
    }

    @Test func theSameValueUnderAnotherKeyHeaderIsAnotherRequest() {
        let accept = registry.statefulEndpoint(for: endpoint(headers: ["Accept": "text/plain"]))
        #expect(registry.statefulEndpoint(for: endpoint(headers: ["Content-Type": "text/plain"])) !== accept)
    }

    @Test func theOrderHeadersWereSetInDoesNotMatter() {
        // Many headers, so that the two requests' header dictionaries are unlikely to list them in one order.
        let names =
            ["Accept", "Accept-Language", "Authorization", "Content-Type", "Cookie"] + (0..<40).map { "X-\($0)" }
        var (first, second) = (endpoint(), endpoint())
        for name in names { first.request.setValue("v-" + name, forHTTPHeaderField: name) }
        for name in names.reversed() { second.request.setValue("v-" + name, forHTTPHeaderField: name) }
        #expect(registry.statefulEndpoint(for: first) === registry.statefulEndpoint(for: second))
    }

    /// Every credential header tells requests apart by default, not only `Authorization` and `Cookie`: two accounts'
    /// requests that differ only in an API's own token header (GitLab's `Private-Token`) shared one instance, and the
    /// second account was shown the first one's answer. The rule is the one `FileResponseStore` keys its files by.
    @Test func requestsWithDifferentCredentialsInAnyCredentialHeaderNeverShareAnInstance() {
        let first = registry.statefulEndpoint(for: endpoint(headers: ["Private-Token": "glpat-a"]))
        #expect(registry.statefulEndpoint(for: endpoint(headers: ["Private-Token": "glpat-b"])) !== first)
        #expect(registry.statefulEndpoint(for: endpoint(headers: ["X-Api-Key": "b"])) !== first)
        let artifactory = registry.statefulEndpoint(for: endpoint(headers: ["X-JFrog-Art-Api": "a"]))
        #expect(registry.statefulEndpoint(for: endpoint(headers: ["X-JFrog-Art-Api": "b"])) !== artifactory)
        #expect(registry.statefulEndpoint(for: endpoint(headers: ["private-token": "glpat-a"])) === first)
        #expect(
            registry.statefulEndpoint(for: endpoint(headers: ["Private-Token": "glpat-a", "X-Request-ID": "2"]))
                === first)
    }

    @Test func customKeyHeadersReplaceTheDefaults() {
        let registry = EndpointRegistry(transport: numberedMock(), keyHeaders: ["X-Tenant"])
        let a = registry.statefulEndpoint(for: endpoint(headers: ["X-Tenant": "a", "Authorization": "1"]))
        #expect(registry.statefulEndpoint(for: endpoint(headers: ["x-tenant": "a", "Authorization": "2"])) === a)
        #expect(registry.statefulEndpoint(for: endpoint(headers: ["X-Tenant": "b"])) !== a)
    }

    @Test func removeAndRemoveAllForgetInstances() {
        let first = registry.statefulEndpoint(for: endpoint())
        registry.remove(endpoint())
        let second = registry.statefulEndpoint(for: endpoint())
        #expect(second !== first)
        registry.removeAll()
        #expect(registry.statefulEndpoint(for: endpoint()) !== second)
    }

    @MainActor @Test func instancesUseTheRegistrysTransportMaximumAgeGracePeriodAndClock() async {
        let clock = TestClock()
        let mock = numberedMock()
        let registry = EndpointRegistry(
            transport: mock, maximumAge: .seconds(30), cancelsUnobservedLoadAfter: .seconds(2), clock: clock)
        let shared = registry.statefulEndpoint(for: endpoint())
        #expect(shared.maximumAge == .seconds(30))
        #expect(shared.unobservedLoadGracePeriod == .seconds(2))
        shared.loadIfNeeded()
        await waitUntil(shared) { $0 == .success("v1") }
        clock.advance(by: .seconds(30))
        shared.loadIfNeeded()
        await waitUntil(shared) { $0 == .success("v2") }
        #expect(mock.requests.count == 2)
    }

    @Test func theSharedRegistryIsOneInstance() {
        #expect(EndpointRegistry.shared === EndpointRegistry.shared)
    }
}
