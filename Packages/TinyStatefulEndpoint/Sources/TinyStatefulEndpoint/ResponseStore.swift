import Foundation
@_spi(TinyKit) import TinyHTTPTransport

/// Where a ``StatefulEndpoint`` keeps its last good response across launches, so a screen can show the last data at
/// once, offline too, while it revalidates. ``FileResponseStore`` keeps them in files.
///
/// A store keeps responses, not values: the endpoint decodes a kept body with its own parse function, so any
/// endpoint can be persisted and a body the app's current model can no longer decode is simply not offered.
public protocol ResponseStore: Sendable {
    /// The value kept for `request`, made by `decode` from the kept body and response; `nil` when there is none or
    /// it cannot be read or decoded (say why in your log).
    func restore<Value>(
        for request: URLRequest, _ decode: @Sendable (Data, HTTPURLResponse) throws -> Value
    ) async -> Value?

    /// Keeps `body` and `response`, the latest good answer to `request`, replacing what was kept for it. Every good
    /// answer is handed over: deciding what not to keep (`Cache-Control: no-store`, a request with credentials, as
    /// ``FileResponseStore`` does) is the store's job, and so is dropping what it kept for `request` then, which is
    /// no longer the latest answer. A save can come from a cancelled task (a replaced load hands the newer answer over
    /// again when its own save ended last): finish it all the same.
    func save(_ body: Data, _ response: HTTPURLResponse, for request: URLRequest) async
}

/// A ``ResponseStore`` that keeps each response in a JSON file of its own in a directory, keyed by method, URL and
/// the `Accept`, `Accept-Language` and `Origin` values.
///
/// ```swift
/// let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
/// let todos = StatefulEndpoint(endpoint: api.todos(), store: FileResponseStore(directory: caches))
/// ```
///
/// - Writes are atomic (a new file replaces the old one whole), so a crash never leaves half a value behind. Files
///   are readable by their user only (`0600`, in a directory it creates `0700`).
/// - A missing file is no value; a corrupt or undecodable one is ignored and its reason goes to `log`; nothing throws.
/// - A response marked `Cache-Control: no-store` is never written, nor one that varies with request headers (`Vary`,
///   other than `Accept-Encoding` and those part of its key: `Accept`, `Accept-Language`, and the CORS fields a
///   browser sends, `Origin` and `Access-Control-Request-Method`/`-Headers`, which CORS middleware names in `Vary` on
///   every response), and neither is the
///   response to a request that carries credentials (a header or query parameter `HTTPRedaction.default` hides, such
///   as `Authorization`, `Cookie`, `X-API-Key` or `api_key`, a password or a user name as a token in its URL, a
///   field of a body up to 64 KiB named as such a query parameter, at any depth of JSON: a sign-in's `password`, a
///   token request's `client_secret`, but also any `token` or `key`) unless
///   `storesCredentialedRequests` is set: private data stays off the disk unless you say otherwise. Stored, such a
///   response is kept per credential (a 64-bit hash of them is part of its key, the credentials themselves are not
///   written: a short password could be found from the hash, a token not), so one user's answer is never restored for
///   another. (A credential the transport adds later, such as the authorization middleware's, is not seen here: give
///   such an API a store per signed-in user, or none.) A response's `Set-Cookie`, or any header field
///   `HTTPRedaction.default` hides (a token in `X-Auth-Token`, say), is never written, nor a field holding a URL with a
///   secret it hides (a `Content-Location` or `Link` to `…?token=…` or to a presigned URL, or a `#access_token=…`);
///   the others are written as they came.
/// - A `304` hands the stored body back with the `304`'s header fields (RFC 9111 §4.3.4), when it is the body of the
///   response the `304` confirmed (same `ETag`, weak or strong, and `Last-Modified`): a `304` that says `no-store`
///   removes the file.
/// - A response it does not write removes the file of the answer before it, which is no longer the latest: no
///   launch offers it again.
public struct FileResponseStore: ResponseStore {
    let directory: URL
    let storesCredentialedRequests: Bool
    let log: @Sendable (String) -> Void

    /// Creates a store that keeps its files in `directory` (created when first written).
    ///
    /// - Parameters:
    ///   - directory: The directory of the files, for example in the caches directory.
    ///   - storesCredentialedRequests: Whether responses to requests carrying credentials are kept: a header
    ///     `HTTPRedaction.default` hides (`Authorization`, `Cookie`, `X-API-Key`…), a password, a user name as a
    ///     token or a secret query parameter in the URL, or a body field named as one (`password`, `client_secret`).
    ///   - log: Where the reasons for ignored files and failed writes go; standard error by default.
    public init(
        directory: URL, storesCredentialedRequests: Bool = false,
        log: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data("TinyKit: \($0)\n".utf8)) }
    ) {
        (self.directory, self.storesCredentialedRequests, self.log) = (directory, storesCredentialedRequests, log)
    }

    /// What a file holds: the key it was written for (checked when read, against hash collisions) and the response.
    struct Record: Codable {
        var key: String
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    /// The value `decode` makes of the file kept for `request`; `nil` when there is none, and `nil` with the reason
    /// logged when it cannot be read, was written for another request, or does not decode. A file kept for a request
    /// that carries credentials is removed unread unless `storesCredentialedRequests` is set: one a store that keeps
    /// them wrote, or an earlier version under the same key (a sign-in's: its body is part of the key). A file an
    /// earlier version wrote for a URL whose query names are secret now (`?accessToken=…`) is under another key, and
    /// not found again: clear the directory once if such URLs were stored.
    public func restore<Value>(
        for request: URLRequest, _ decode: @Sendable (Data, HTTPURLResponse) throws -> Value
    ) async -> Value? {
        guard let (key, file, credentialed) = location(of: request), FileManager.default.fileExists(atPath: file.path)
        else { return nil }
        guard storesCredentialedRequests || !credentialed else {
            remove(file)
            return nil
        }
        do {
            let record = try JSONDecoder().decode(Record.self, from: Data(contentsOf: file))
            guard record.key == key, let url = request.url,
                let response = HTTPURLResponse(
                    url: url, statusCode: record.status, httpVersion: "HTTP/1.1", headerFields: record.headers)
            else {
                let reason =
                    "it holds the response to another request, not \(HTTPRedaction.default.summary(of: request))"
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: reason))
            }
            return try decode(record.body, response)
        } catch {
            // An error with an `errorDescription` is told by it: an `EndpointError`'s holds no body, its `description`
            // the stored one.
            let reason = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
            log("ignored the stored response \(file.path): \(reason)")
            return nil
        }
    }

    /// Writes `body` and `response` atomically to the file of `request`, unless the response says `no-store` or varies
    /// with request headers, or the request carries credentials that may not be stored: then the file of an earlier
    /// answer is removed, which is no longer the last one seen. A failed write or removal is logged.
    public func save(_ body: Data, _ response: HTTPURLResponse, for request: URLRequest) async {
        let noStore = response.cacheDirectives.contains("no-store")
        // Kept by method, URL, body and the negotiated fields (and decompressed): an answer that depends on other
        // request headers could be the wrong one.
        let keyed = ["accept-encoding"] + Self.negotiatedFields.map { $0.lowercased() }
        let varies = (response.value(forHTTPHeaderField: "Vary") ?? "").lowercased().split(separator: ",").contains {
            !keyed.contains($0.trimmingCharacters(in: .whitespaces))
        }
        guard let (key, file, credentialed) = location(of: request) else { return }
        guard !noStore, !varies, storesCredentialedRequests || !credentialed else { return remove(file) }
        do {
            // Readable by this user only: a response can be private data.
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // Without the fields `HTTPRedaction.default` hides (`Set-Cookie`, a token in `X-Auth-Token`…, a `Link` to
            // a presigned URL): a session cookie or a token has no business in a file (nothing restored uses them).
            let fields = response.fields
            let hidden = Self.hiddenNames(in: fields)
            let headers = fields.filter { !hidden.contains($0.key) }
            let record = Record(key: key, status: response.statusCode, headers: headers, body: body)
            try JSONEncoder().encode(record).write(to: file, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        } catch {
            log(
                "could not store the response to \(HTTPRedaction.default.summary(of: request)) in \(file.path): \(error)"
            )
        }
    }

    /// Removes `file`, if it is there; a failure is logged.
    private func remove(_ file: URL) {
        guard FileManager.default.fileExists(atPath: file.path) else { return }
        do { try FileManager.default.removeItem(at: file) } catch { log("could not remove \(file.path): \(error)") }
    }

    /// The names of the header fields in `fields` that `HTTPRedaction.default` hides (`Authorization`, `Cookie`,
    /// `Set-Cookie`, `X-API-Key`…), or that hold a URL with a secret it hides (`Link: <…?X-Amz-Signature=…>`,
    /// `Content-Location: /callback#access_token=…`).
    static func hiddenNames(in fields: [String: String]) -> Set<String> {
        Set(HTTPRedaction.default.redacted(headers: fields).filter { fields[$0.key] != $0.value }.keys)
    }

    /// The request header fields an answer's key holds: its format and language, and the CORS fields, so that an
    /// answer that varies by them (`Vary`) is kept per value.
    static let negotiatedFields = [
        "Accept", "Accept-Language", "Origin", "Access-Control-Request-Method", "Access-Control-Request-Headers",
    ]

    /// The key of `request`, the file it is kept in (named by the key's hash, 64-bit FNV-1a), and whether the request
    /// carries credentials: a header or query parameter `HTTPRedaction.default` hides (`Authorization`, `Cookie`,
    /// `X-API-Key`, `api_key`…), a password or a user name as a token in its URL, or a body field named as such a
    /// query parameter (``holdsSecret(_:)``).
    ///
    /// The key is the method, the redacted URL, and hashes: of the body (two searches `POST`ed to one URL are two
    /// answers), of the ``negotiatedFields`` (a French answer is not an English one) and of the
    /// credentials (one user's answer is never another's, and no secret is written).
    func location(of request: URLRequest) -> (key: String, file: URL, credentialed: Bool)? {
        // As in `EndpointRegistry`'s key, one spelling of the resource (`URL.key`: no fragment, `API.example.com:443`
        // as `api.example.com`), and its redacted form: they differ by secrets.
        guard let url = request.url?.key else { return nil }
        func hash(_ bytes: some Sequence<UInt8>) -> String {
            String(bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }, radix: 16)
        }
        let (sent, shown) = (url.absoluteString, HTTPRedaction.default.redacted(url: url))
        // The headers `HTTPRedaction.default` hides (`Authorization`, `Cookie`, `X-API-Key`…), in a fixed order.
        let hidden = Self.hiddenNames(in: request.allHTTPHeaderFields ?? [:]).sorted()
        func fields(_ names: [String]) -> [String] {  // joined by line breaks, which values sent do not have
            names.compactMap { name in request.value(forHTTPHeaderField: name).map { "\(name): \($0)" } }
        }
        let secrets = ((sent == shown ? [] : ["URL: \(sent)"]) + fields(hidden)).joined(separator: "\n")
        // As in `EndpointRegistry`'s key: an answer in another language or format is another answer, `Vary` or not.
        let negotiated = fields(Self.negotiatedFields).joined(separator: "\n")
        let key =  // `v2`: the files of the first key, the URL in clear and no credentials, are never read
            "v2 \(request.httpMethod ?? "GET") \(shown)" + (request.httpBody.map { " body \(hash($0))" } ?? "")
            + (negotiated.isEmpty ? "" : " negotiated \(hash(negotiated.utf8))")
            + (secrets.isEmpty ? "" : " credentials \(hash(secrets.utf8))")
        let credentialed = !secrets.isEmpty || request.httpBody.map(Self.holdsSecret) == true
        return (key, directory.appendingPathComponent(hash(key.utf8) + ".json"), credentialed)
    }

    /// Whether `body` has a field named as a query parameter `HTTPRedaction.default` hides (`password`, `newPassword`,
    /// `client_secret`, `refresh_token`, `token`, `key`…, each part of a nested name): a JSON object's key at any depth,
    /// or, in a body that is not JSON, a form's field. A sign-in's body. One over 64 KiB (an upload) is not read.
    static func holdsSecret(_ body: Data) -> Bool {
        guard body.count <= 64 * 1024 else { return false }
        func keys(_ json: Any) -> [String] {
            if let object = json as? [String: Any] { return object.flatMap { [$0.key] + keys($0.value) } }
            return (json as? [Any])?.flatMap(keys) ?? []
        }
        let names =
            (try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed)).map(keys)
            ?? String(decoding: body, as: UTF8.self).split(separator: "&").map {
                let name = String($0.prefix { $0 != "=" })
                return name.removingPercentEncoding ?? name
            }
        // Asked as of a URL's query, encoded: the one rule of secret names (nested ones too, `user[password]`).
        var components = URLComponents(string: "http://body/")
        components?.percentEncodedQueryItems = names.map {
            URLQueryItem(name: $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "", value: "")
        }
        return components?.url.map { HTTPRedaction.default.redacted(url: $0) != $0.absoluteString } ?? false
    }
}

extension URL {
    /// The URL as a key, one for all the spellings of the resource it names: its scheme and host lower-cased, a default
    /// port (`:443` of `https`, `:80` of `http`) left out (RFC 3986 §6.2.2.1, §6.2.3), and without its fragment, which
    /// is never sent. Only keys use it: a request sends its URL as written.
    var key: URL {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else { return self }
        components.scheme = components.scheme?.lowercased()
        components.percentEncodedHost = components.percentEncodedHost?.lowercased()
        if components.port == ["http": 80, "https": 443][components.scheme ?? ""] { components.port = nil }
        components.percentEncodedFragment = nil
        return components.url ?? self
    }
}
