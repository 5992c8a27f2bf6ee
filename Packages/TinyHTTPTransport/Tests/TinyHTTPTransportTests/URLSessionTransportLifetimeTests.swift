import Foundation
import Testing

@testable import TinyHTTPTransport

@Suite(.timeLimit(.minutes(1))) struct URLSessionTransportLifetimeTests {
    @Test func releasingTheTransportReleasesItsSessionAndDelegate() async throws {
        weak var delegate: SessionDelegate?
        do {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.protocolClasses = [StubProtocol.self]
            let transport = URLSessionTransport(configuration: configuration)
            delegate = transport.session.delegate as? SessionDelegate
            var request = URLRequest(url: try #require(URL(string: "https://stub.example/a")))
            request.setValue("status 200", forHTTPHeaderField: "X-Stub")
            _ = try await transport.send(request)
            #expect(delegate != nil)
        }
        // The session lets go of its delegate once invalidated, asynchronously: wait for it, at most 30 s.
        for _ in 0..<3000 where delegate != nil {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(delegate == nil)
    }

    /// The transport invalidates the session it owns when it goes, even while someone else still holds the session.
    @Test func releasingTheTransportInvalidatesItsSession() async throws {
        weak var delegate: SessionDelegate?
        let session: URLSession
        do {
            let transport = URLSessionTransport(configuration: .ephemeral)
            session = transport.session
            delegate = session.delegate as? SessionDelegate
            #expect(delegate != nil)
        }
        // The session lets go of its delegate once invalidated, asynchronously: wait for it, at most 30 s.
        for _ in 0..<3000 where delegate != nil {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(delegate == nil)
        #expect(session.delegate == nil)
    }

    @Test func aGivenSessionStaysUsableAfterTheTransportIsGone() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubProtocol.self]
        let session = URLSession(configuration: configuration)
        var request = URLRequest(url: try #require(URL(string: "https://stub.example/a")))
        request.setValue("status 202", forHTTPHeaderField: "X-Stub")
        do {
            let transport = URLSessionTransport(session: session)
            #expect(transport.session === session)
            #expect(transport.session.delegate == nil)
            #expect(try await transport.send(request).1.statusCode == 202)
        }
        #expect(try await session.send(request).1.statusCode == 202)
    }
}
