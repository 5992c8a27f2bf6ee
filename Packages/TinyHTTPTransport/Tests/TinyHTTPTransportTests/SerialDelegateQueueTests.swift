#if canImport(FoundationNetworking)
    import Foundation
    import Testing
    @_spi(TinyKit) @testable import TinyHTTPTransport

    @Suite(.timeLimit(.minutes(1))) struct SerialDelegateQueueTests {
        @Test func blocksRunOneAtATimeInTheOrderTheyWereAdded() async {
            let queue = SerialDelegateQueue()
            let log = Locked((order: [Int](), running: 0, mostAtOnce: 0))
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                for index in 0..<2_000 {
                    queue.addOperation {
                        log.withLock {
                            $0.running += 1
                            $0.mostAtOnce = max($0.mostAtOnce, $0.running)
                        }
                        if index % 100 == 0 { usleep(100) }  // give a second block the chance to overlap
                        log.withLock {
                            $0.order.append(index)
                            $0.running -= 1
                        }
                        if index == 1_999 { done.resume() }
                    }
                }
            }
            let result = log.withLock { $0 }
            #expect(result.order == Array(0..<2_000))
            #expect(result.mostAtOnce == 1)
        }

        @Test func barriersAndWaitingSeeTheBlocksAddedBefore() {
            let queue = SerialDelegateQueue()
            let log = Recorder<String>()
            queue.addOperation {
                usleep(20_000)
                log.append("block")
            }
            queue.addBarrierBlock { log.append("barrier") }
            queue.waitUntilAllOperationsAreFinished()
            #expect(log.all == ["block", "barrier"])
        }

        @Test func theSessionsTinyKitMakesUseIt() {
            let transport = URLSessionTransport(configuration: .ephemeral)
            #expect(transport.session.delegateQueue is SerialDelegateQueue)
            // A session given to the transport keeps its own queue.
            let own = URLSession(configuration: .ephemeral)
            #expect(!(URLSessionTransport(session: own).session.delegateQueue is SerialDelegateQueue))
        }

        @Test func aRequestCompletesThroughIt() async throws {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.protocolClasses = [StubProtocol.self]
            var request = URLRequest(url: URL(string: "http://stub.invalid/ordered")!)
            request.setValue("status 200", forHTTPHeaderField: "X-Stub")
            let transport = URLSessionTransport(configuration: configuration)
            // With the size limit (response, data and completion through the delegate queue), and without it (the
            // completion handler through the delegate queue).
            for (body, response) in [try await transport.send(request), try await transport.session.send(request)] {
                #expect(response.statusCode == 200)
                #expect(String(decoding: body, as: UTF8.self).contains("/ordered"))
            }
        }
    }
#endif
