import Foundation

/// The demo REST API without the sockets: a small, jsonplaceholder-like set of `users`, `todos` and `posts`, kept
/// in memory. ``DemoServer`` serves it over HTTP; tests can also call ``handle(_:)`` directly.
///
/// | request | answer |
/// |---|---|
/// | `GET /todos`, `GET /todos?userId=1`, `GET /users/1/todos` | 200, a JSON array sorted by id |
/// | `GET /todos/1` | 200, the object; 404 when there is no such id |
/// | `POST /todos` | 201, the object with its new id; 400 when the body is not a valid todo |
/// | `PUT /todos/1`, `PATCH /todos/1` | 200, the updated object; 404 / 400 as above |
/// | `DELETE /todos/1` | 200, `{}` (as jsonplaceholder answers); 404 when there is no such id |
///
/// Errors have a JSON body `{"error": "…"}`. The type is thread-safe: one instance serves concurrent requests.
public final class DemoAPI: @unchecked Sendable {  // Safe: `collections` is only touched while holding `lock`.
    private let lock = NSLock()
    private var collections: [String: Collection]

    /// Creates the API with its seed data (``DemoData``); every instance has its own copy.
    public init() {
        collections = [
            "users": Collection(schema: DemoData.userSchema, records: DemoData.users),
            "todos": Collection(schema: DemoData.todoSchema, records: DemoData.todos),
            "posts": Collection(schema: DemoData.postSchema, records: DemoData.posts),
        ]
    }

    /// Answers one request.
    public func handle(_ request: DemoRequest) -> DemoResponse {
        let segments = request.path.split(separator: "/").map(String.init)
        guard let name = segments.first else {
            return .json(.object(["resources": .array([.string("users"), .string("todos"), .string("posts")])]))
        }
        lock.lock()
        defer { lock.unlock() }
        guard var collection = collections[name] else { return .error(404, "no resource /\(name)") }
        defer { collections[name] = collection }
        switch (request.method, segments.count) {
        case ("GET", 1):
            return .json(.array(collection.list(matching: request.query)))
        case ("POST", 1):
            return collection.create(request.body)
        case (_, 1):
            return .error(405, "\(request.method) is not allowed on /\(name)")
        case (_, 2), (_, 3):
            guard let id = Int(segments[1]) else {
                return .error(404, "no \(collection.schema.name) '\(segments[1])'")
            }
            if segments.count == 3 {
                return nested(segments[2], of: collection, id: id, method: request.method)
            }
            return collection.handle(request.method, id: id, body: request.body)
        default:
            return .error(404, "no resource \(request.path)")
        }
    }

    /// `GET /users/1/todos`: the records of another resource whose `<resource>Id` is `id`.
    private func nested(_ child: String, of parent: Collection, id: Int, method: String) -> DemoResponse {
        // A resource is not nested in itself (`/users/1/users` listed every user).
        guard method == "GET", let children = collections[child], children.schema.name != parent.schema.name else {
            return .error(404, "no resource /\(parent.schema.name)s/\(id)/\(child)")
        }
        guard parent.records[id] != nil else { return .error(404, "no \(parent.schema.name) with id \(id)") }
        return .json(.array(children.list(matching: [(parent.schema.name + "Id", String(id))])))
    }
}

/// A request to ``DemoAPI``: the method, the path without its query, the query items and the body.
public struct DemoRequest: Sendable {
    public var method: String
    public var path: String
    public var query: [(name: String, value: String)]
    public var body: Data

    public init(method: String, path: String, query: [(name: String, value: String)] = [], body: Data = Data()) {
        self.method = method.uppercased()
        self.path = path
        self.query = query
        self.body = body
    }
}

/// An answer of ``DemoAPI``: a status code and a JSON body.
public struct DemoResponse: Sendable, Equatable {
    public var status: Int
    public var body: JSONValue

    /// The body as compact JSON with sorted keys.
    public var bodyData: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(body)) ?? Data("{}".utf8)
    }

    static func json(_ body: JSONValue, status: Int = 200) -> DemoResponse {
        DemoResponse(status: status, body: body)
    }

    static func error(_ status: Int, _ message: String) -> DemoResponse {
        DemoResponse(status: status, body: .object(["error": .string(message)]))
    }
}

/// The fields a resource requires, with their JSON types.
struct Schema {
    enum FieldType: String {
        case string, int, bool

        func accepts(_ value: JSONValue) -> Bool {
            switch (self, value) {
            case (.string, .string), (.int, .int), (.bool, .bool): true
            default: false
            }
        }
    }

    /// The singular name, for messages and nested paths: `user`.
    var name: String
    var fields: [(name: String, type: FieldType)]
}

/// The records of one resource, by id.
private struct Collection {
    var schema: Schema
    var records: [Int: [String: JSONValue]]

    init(schema: Schema, records: [[String: JSONValue]]) {
        self.schema = schema
        self.records = [:]
        for record in records {
            if case .int(let id) = record["id"] { self.records[id] = record }
        }
    }

    func list(matching query: [(name: String, value: String)]) -> [JSONValue] {
        records.keys.sorted().compactMap { id in
            guard let record = records[id] else { return nil }
            let matches = query.allSatisfy { item in
                guard let value = record[item.name] else { return true }  // unknown parameters are ignored
                return value.queryText == item.value
            }
            return matches ? .object(record) : nil
        }
    }

    mutating func create(_ body: Data) -> DemoResponse {
        switch validated(body, partial: false) {
        case .failure(let error):
            return error.response
        case .success(var record):
            let id = (records.keys.max() ?? 0) + 1
            record["id"] = .int(id)
            records[id] = record
            return .json(.object(record), status: 201)
        }
    }

    mutating func handle(_ method: String, id: Int, body: Data) -> DemoResponse {
        guard let existing = records[id] else { return .error(404, "no \(schema.name) with id \(id)") }
        switch method {
        case "GET":
            return .json(.object(existing))
        case "DELETE":
            records[id] = nil
            return .json(.object([:]))
        case "PUT", "PATCH":
            switch validated(body, partial: method == "PATCH") {
            case .failure(let error):
                return error.response
            case .success(let changes):
                var record = method == "PATCH" ? existing.merging(changes) { $1 } : changes
                record["id"] = .int(id)
                records[id] = record
                return .json(.object(record))
            }
        default:
            return .error(405, "\(method) is not allowed on /\(schema.name)s/\(id)")
        }
    }

    /// The body as a record, or a 400 saying what is wrong with it.
    private func validated(_ body: Data, partial: Bool) -> Result<[String: JSONValue], DemoResponseError> {
        guard case .object(let record)? = try? JSONDecoder().decode(JSONValue.self, from: body) else {
            return .failure(DemoResponseError(.error(400, "the body must be a JSON object")))
        }
        for field in schema.fields {
            guard let value = record[field.name] else {
                if partial { continue }
                return .failure(
                    DemoResponseError(.error(400, "missing field '\(field.name)' (\(field.type.rawValue))")))
            }
            guard field.type.accepts(value) else {
                return .failure(
                    DemoResponseError(.error(400, "field '\(field.name)' must be a \(field.type.rawValue)")))
            }
        }
        return .success(record)
    }
}

/// A response carried as the failure of a `Result`.
private struct DemoResponseError: Error {
    var response: DemoResponse
    init(_ response: DemoResponse) { self.response = response }
}
