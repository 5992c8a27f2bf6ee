/// A user of the demo API (and of jsonplaceholder.typicode.com).
public struct User: Codable, Sendable, Equatable, Identifiable {
    public var id: Int?
    public var name: String
    public var username: String
    public var email: String

    public init(id: Int? = nil, name: String, username: String, email: String) {
        self.id = id
        self.name = name
        self.username = username
        self.email = email
    }
}

/// A todo; `id` is `nil` until the server assigned one.
public struct Todo: Codable, Sendable, Equatable, Identifiable {
    public var id: Int?
    public var userId: Int
    public var title: String
    public var completed: Bool

    public init(id: Int? = nil, userId: Int, title: String, completed: Bool = false) {
        self.id = id
        self.userId = userId
        self.title = title
        self.completed = completed
    }
}

/// A blog post; `id` is `nil` until the server assigned one.
public struct Post: Codable, Sendable, Equatable, Identifiable {
    public var id: Int?
    public var userId: Int
    public var title: String
    public var body: String

    public init(id: Int? = nil, userId: Int, title: String, body: String) {
        self.id = id
        self.userId = userId
        self.title = title
        self.body = body
    }
}
