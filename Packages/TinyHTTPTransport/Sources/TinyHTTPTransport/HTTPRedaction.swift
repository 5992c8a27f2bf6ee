import Foundation

/// Which headers and query parameters hold secrets, and how to print them without those secrets.
///
/// Every text TinyKit prints about a request goes through a redaction: ``HTTPTransportError/description`` uses
/// ``default``, and the logging middleware of TinyHTTPLogging takes one. A secret's value is replaced by
/// `***`; its name stays, so you can still see that it was sent.
///
/// ```swift
/// let redaction = HTTPRedaction(headers: ["X-API-Key"], queryParameters: ["sig"])
/// redaction.redacted(headers: ["Authorization": "Bearer abc", "Accept": "application/json"])
/// // ["Authorization": "***", "Accept": "application/json"]
/// ```
///
/// Names are compared case-insensitively; a query parameter's also without `_` and `-`, and by each part of a nested
/// name (`[…]`, `.`, a form's `+`): `password` makes `user[password]` and `user.Password` secret, and `sig` hides
/// `X_Sig`. The names of ``default`` are secret in every redaction, like a URL's user name and password.
public struct HTTPRedaction: Hashable, Sendable {
    /// The secret header names, lower-cased.
    private(set) var headers: Set<String>
    /// The secret query parameter names, as ``name(_:)`` spells them.
    private(set) var queryParameters: Set<String>

    /// What a secret value is replaced with: `***`.
    static let placeholder = "***"

    /// `Cookie`, `Set-Cookie` and every header whose name reads as a credential: it holds `auth`, `token`, `key`,
    /// `secret`, `session`, `password`, `credential` or `jwt`, or ends in `-api` (`Authorization`, `X-API-Key`,
    /// `X-Amz-Security-Token`, `X-Credential`, an API's own such as GitLab's `Private-Token` or Artifactory's
    /// `X-JFrog-Art-Api`), but not `Idempotency-Key`, `Access-Control-Allow-Credentials` nor the challenges
    /// `WWW-Authenticate` and `Proxy-Authenticate`; the query parameters `access_token`, `refresh_token`,
    /// `id_token`, `id_token_hint`, `auth_token`, `oauth_token`, `private_token`, `api_key`, `access_key`,
    /// `secret_key`, `key` (Google's API keys), `token`, `password`, `passwd`, `pwd`, OAuth's `code_verifier` and
    /// `client_assertion`, the credentials of an S3 presigned URL (`X-Amz-Credential`, `X-Amz-Security-Token`) and of a
    /// Google Cloud Storage signed one (`X-Goog-Credential`), and every name that holds `password` or ends in `secret`
    /// or `signature` (`new_password`, `client_secret`, `X-Amz-Signature`), in any case and ignoring `_` and `-`
    /// (`accessToken`, `apikey`; names without a value are left as they are); the user
    /// name and password of a URL's user information (`https://user:password@host`; the user name is often the
    /// token, as in `https://TOKEN@host` and `https://TOKEN:x-oauth-basic@host`), which are always redacted. A URL's
    /// fragment is left out: it is never sent, and OAuth's implicit flow puts tokens there.
    public static let `default` = HTTPRedaction()

    /// Creates a redaction of these header and query parameter names besides those of ``default``, which are secret
    /// in every redaction. Header names compare case-insensitively; query parameter names also without `_` and `-`.
    public init(headers: Set<String> = [], queryParameters: Set<String> = []) {
        // Those of ``default``, secret in every redaction: cookies and tokens (and the headers `hides(header:)` reads
        // as credentials by their names).
        self.headers = Set(headers.map { $0.lowercased() }).union(["cookie", "set-cookie"])
        self.queryParameters = Set(
            (Array(queryParameters) + [
                "access_token", "refresh_token", "id_token", "id_token_hint", "auth_token", "oauth_token",
                "private_token", "api_key", "access_key", "secret_key", "key", "token", "password", "passwd", "pwd",
                "code_verifier", "client_assertion", "x-amz-credential", "x-amz-security-token", "x-goog-credential",
            ]).map(Self.name))
    }

    /// A query parameter's name as secret names compare: lower-cased, without `_` and `-` (`accessToken`,
    /// `access_token` and `Access-Token` are one name).
    static func name(_ text: some StringProtocol) -> String { text.lowercased().filter { $0 != "_" && $0 != "-" } }

    /// Whether a redirect from `from` to `to` goes without the request header `name`: `to` is of another origin
    /// (RFC 6454: scheme, host and port, in any case, a default port the same as none), and `name` is `Origin` or a
    /// header ``default`` hides (`hides(header:)`). The rule of both transports.
    @_spi(TinyKit) public static func redirect(from: URL, to: URL, drops name: String) -> Bool {
        func origin(_ url: URL) -> (String?, String?, Int?) {
            let scheme = url.scheme?.lowercased()
            return (scheme, url.host?.lowercased(), url.port ?? ["http": 80, "https": 443][scheme ?? ""])
        }
        return (name.lowercased() == "origin" || Self.default.hides(header: name)) && origin(from) != origin(to)
    }

    /// Whether the header `name` holds a secret: it is one this redaction names (`Cookie` and `Set-Cookie` in every
    /// one), or its name reads as a credential: it holds `auth`, `token`, `key`, `secret`, `session`, `password`,
    /// `credential` or `jwt`, or ends in `-api` (`Authorization`, `X-API-Key`, an API's own such as GitLab's
    /// `Private-Token` or Artifactory's `X-JFrog-Art-Api`), but is not `Idempotency-Key` (a retry needs it),
    /// `Access-Control-Allow-Credentials` (CORS's `true`) nor a challenge, `WWW-Authenticate` or
    /// `Proxy-Authenticate` (the scheme a `401` asks for, and why). The one rule of logs, errors, stored responses and
    /// redirects.
    func hides(header name: String) -> Bool {
        let name = name.lowercased()
        let words = ["auth", "token", "key", "secret", "session", "password", "credential", "jwt"]
        let readsAsCredential = words.contains { name.contains($0) } || name.hasSuffix("-api")
        let none = ["idempotency-key", "www-authenticate", "proxy-authenticate", "access-control-allow-credentials"]
        let isNone = none.contains { name.hasSuffix($0) }
        return headers.contains(name) || readsAsCredential && !isNone
    }

    /// `headers` with every secret value replaced by `***`, and the secrets of a URL a value carries (`Location`,
    /// `Content-Location`, each `<…>` of `Link`, `Refresh`'s `url=…`) redacted as a request's URL is.
    public func redacted(headers: [String: String]) -> [String: String] {
        headers.reduce(into: [:]) { redacted, field in
            redacted[field.key] =
                hides(header: field.key) ? Self.placeholder : redactingURLs(in: field.value)
        }
    }

    /// `value` with each URL in it that holds a query, a user or parameters in its fragment redacted: `<…>` of `Link`,
    /// then `url=` of `Refresh` (`0;url=…`, `URL = '…'`), then each word. A word that is not a URL with a scheme, a
    /// path, a query or fragment parameters (`#fff`, a quoted `"v1#x=1"`, `/docs#top`) is kept as it came; a relative
    /// one with a query or fragment parameters (`callback?access_token=…`, OAuth's implicit `callback#access_token=…`)
    /// is redacted.
    private func redactingURLs(in value: String) -> String {
        func redactingURL(_ text: some StringProtocol) -> String {
            guard !text.hasPrefix("\""), text.contains(where: "?@#".contains), let url = URL(string: String(text))
            else { return String(text) }
            let parameters = url.fragment?.contains("=") == true  // OAuth's implicit flow puts tokens there
            // Redacted: a query or fragment parameters, in any word; a user, only in a URL with a scheme or a path.
            guard url.query != nil || parameters || url.user != nil && (url.scheme != nil || text.hasPrefix("/"))
            else { return String(text) }
            // Unchanged but for a fragment without parameters (`#top`), which `redacted(url:)` leaves out: as it came.
            let redacted = redacted(url: url)
            return redacted == (parameters ? url.absoluteString : String(url.absoluteString.prefix { $0 != "#" }))
                ? String(text) : redacted
        }
        // A URL with a secret has a query, a user or a fragment: most values (dates, types, tags) skip the search.
        guard value.contains(where: "?@#".contains) else { return value }
        return value.replacing(/<([^>]*)>/) { "<\(redactingURL($0.1))>" }
            .replacing(/(?i)(url\s*=\s*['"]?)([^'"\s]+)/) { $0.1 + redactingURL($0.2) }
            .split(separator: " ", omittingEmptySubsequences: false).map(redactingURL).joined(separator: " ")
    }

    /// `url` as text, with the values of secret query parameters and the user name and password of its user
    /// information replaced by `***`, and without its fragment.
    @_spi(TinyKit) public func redacted(url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return Self.placeholder }
        // A user name can be the token (GitHub's `TOKEN@` and `TOKEN:x-oauth-basic@`, Stripe's `KEY:@`).
        if components.percentEncodedUser != nil { components.percentEncodedUser = Self.placeholder }
        if components.percentEncodedPassword?.isEmpty == false { components.percentEncodedPassword = Self.placeholder }
        components.percentEncodedFragment = nil  // never sent; OAuth's implicit flow puts tokens there
        if let items = components.percentEncodedQueryItems, items.contains(where: isSecret) {
            components.percentEncodedQueryItems = items.map {
                isSecret($0) ? URLQueryItem(name: $0.name, value: Self.placeholder) : $0
            }
        }
        return components.string ?? Self.placeholder
    }

    /// The request in one line, for logs, errors and `description`s: the method and the URL with its secrets
    /// redacted, never a header or the body, for example `POST https://api.example.com/login`.
    public func summary(of request: URLRequest) -> String {
        let method = request.httpMethod ?? "GET"
        // A method that is not a token (one `validate()` refuses) quoted and escaped: a CR/LF in it breaks no line.
        return
            "\(URLRequest.isToken(method) ? method : method.debugDescription) \(request.url.map(redacted(url:)) ?? "(no URL)")"
    }

    /// The first `limit` bytes of a response body as text on one line, for error messages and logs: `(empty)` for
    /// none, control characters and line separators escaped (`\n`, `\r`, `\u{2028}`: a body cannot break or forge
    /// a log line), and the whole size after a cut (made before a multi-byte character rather than inside it), for
    /// example `{"error":"not… (4096 bytes)`.
    public static func preview(of body: Data, limit: Int = 200) -> String {
        if body.isEmpty { return "(empty)" }
        var end = body.startIndex + min(max(limit, 0), body.count)
        // Cut before a character, not inside one: back over UTF-8 continuation bytes (at most 3 in a character).
        for _ in 0..<3 where end > body.startIndex && end < body.endIndex && body[end] & 0xC0 == 0x80 { end -= 1 }
        let text = oneLine(String(decoding: body[..<end], as: UTF8.self))
        return body.count > limit ? text + "… (\(body.count) bytes)" : text
    }

    /// `text` with its control characters (but tab) and line separators escaped (`\n`, `\u{2028}`).
    static func oneLine(_ text: String) -> String {
        text.unicodeScalars.reduce(into: "") { line, scalar in
            // U+2028 and U+2029 are the only scalars of the separator categories. (Compared one by one: an array
            // literal of the categories is allocated for every scalar, even at -O.)
            let category = scalar.properties.generalCategory
            let breaks =
                category == .control ? scalar != "\t" : category == .lineSeparator || category == .paragraphSeparator
            line += breaks ? scalar.escaped(asASCII: true) : String(scalar)
        }
    }

    private func isSecret(_ item: URLQueryItem) -> Bool {
        // Each part of a nested name (`user[password]`, Rails' and PHP's forms; `user.password`) or of one after a
        // form's `+` (a space).
        let parts = (item.name.removingPercentEncoding ?? item.name).split { "[]+ .".contains($0) }.map(Self.name)
        let secret = { (part: String) in queryParameters.contains(part) || part.contains("password") }
        return item.value != nil && parts.contains { secret($0) || $0.hasSuffix("secret") || $0.hasSuffix("signature") }
    }
}
