import Foundation
import Testing
import TinyKitDemoServer

@Suite struct DemoAPITests {
    let api = DemoAPI()

    func send(_ method: String, _ path: String, _ body: String = "") -> DemoResponse {
        api.handle(DemoRequest(method: method, path: path, body: Data(body.utf8)))
    }

    @Test func listsAndReadsRecords() throws {
        let list = send("GET", "/todos")
        #expect(list.status == 200)
        guard case .array(let todos) = list.body else { throw Unexpected(list) }
        #expect(todos.count == 6)
        let one = send("GET", "/todos/3")
        guard case .object(let todo) = one.body else { throw Unexpected(one) }
        #expect(todo["title"] == .string("Find the moth"))
    }
}

struct Unexpected: Error {
    init(_ response: DemoResponse) { self.response = response }
    var response: DemoResponse
}
