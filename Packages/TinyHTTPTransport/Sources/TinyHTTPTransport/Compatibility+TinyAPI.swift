// Coming from tinyAPI: its spellings of TinyKit's names, kept so its code compiles unchanged.

extension HTTPMethod {
    /// `GET`, spelled as tinyAPI does.
    public static let GET = get
    /// `POST`, spelled as tinyAPI does.
    public static let POST = post
    /// `PUT`, spelled as tinyAPI does.
    public static let PUT = put
    /// `PATCH`, spelled as tinyAPI does.
    public static let PATCH = patch
    /// `DELETE`, spelled as tinyAPI does.
    public static let DELETE = delete
}
