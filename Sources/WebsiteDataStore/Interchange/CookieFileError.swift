/// Why a whole cookie file could not be read (not one line or entry: those
/// are ``CookieImportIssue``s, and the rest of the file is still read).
///
/// Equality compares the code only. The message names the problem and where,
/// never the file's contents (they may hold cookie values).
public struct CookieFileError: Error, Hashable, CustomStringConvertible {
  /// What went wrong, as a stable, extensible code.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// The file is not in the format at all (not JSON; not a cookie
    /// document).
    public static let malformed = Code("malformed")
    /// The file declares a format version this software does not know.
    public static let unsupportedVersion = Code("unsupported-version")
  }

  /// The kind of failure.
  public let code: Code
  /// A human-readable message without secrets.
  public let message: String

  /// Creates an error.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
