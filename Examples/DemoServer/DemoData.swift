/// The seed data of ``DemoAPI``: three users, each with two todos and one or two posts.
///
/// The example mocks in `Examples/Combinations/Mocks` hold the same records, so an example prints the same result
/// against the demo server and with `--mocks`.
public enum DemoData {
    static let userSchema = Schema(
        name: "user", fields: [("name", .string), ("username", .string), ("email", .string)])
    static let todoSchema = Schema(
        name: "todo", fields: [("userId", .int), ("title", .string), ("completed", .bool)])
    static let postSchema = Schema(
        name: "post", fields: [("userId", .int), ("title", .string), ("body", .string)])

    static let users: [[String: JSONValue]] = [
        user(1, "Ada Lovelace", "ada", "ada@example.com"),
        user(2, "Grace Hopper", "grace", "grace@example.com"),
        user(3, "Alan Turing", "alan", "alan@example.com"),
    ]

    static let todos: [[String: JSONValue]] = [
        todo(1, user: 1, "Write the first program", completed: true),
        todo(2, user: 1, "Describe the Analytical Engine", completed: false),
        todo(3, user: 2, "Find the moth", completed: true),
        todo(4, user: 2, "Write a compiler", completed: false),
        todo(5, user: 3, "Define computability", completed: true),
        todo(6, user: 3, "Break the code", completed: false),
    ]

    static let posts: [[String: JSONValue]] = [
        post(1, user: 1, "Notes on the engine", "The engine weaves algebraic patterns."),
        post(2, user: 2, "A bug in the relay", "First actual case of bug being found."),
        post(3, user: 3, "On computable numbers", "A number is computable if a machine can write it."),
        post(4, user: 3, "The imitation game", "Can machines think?"),
    ]

    private static func user(_ id: Int, _ name: String, _ username: String, _ email: String) -> [String: JSONValue] {
        ["id": .int(id), "name": .string(name), "username": .string(username), "email": .string(email)]
    }

    private static func todo(_ id: Int, user: Int, _ title: String, completed: Bool) -> [String: JSONValue] {
        ["id": .int(id), "userId": .int(user), "title": .string(title), "completed": .bool(completed)]
    }

    private static func post(_ id: Int, user: Int, _ title: String, _ body: String) -> [String: JSONValue] {
        ["id": .int(id), "userId": .int(user), "title": .string(title), "body": .string(body)]
    }
}
