/// An operational failure of a store: I/O, corruption, keys, C library errors.
/// (Decisions about cookies are never errors; they are
/// ``CookieCore/CookieInclusionStatus`` values.)
///
/// Equality compares the code only. The message never contains a secret: no
/// cookie value, key material, passphrase or SQL argument.
public struct WebsiteDataStoreError: Error, Hashable, CustomStringConvertible {
  /// What went wrong, as a stable, extensible code.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// A read or write failed.
    public static let io = Code("io")
    /// The store file is damaged or not a store.
    public static let corrupt = Code("corrupt")
    /// The file is an SQLite database (or an empty file) but not a
    /// WebsiteData store: another program's, such as a browser's cookie
    /// database. It was left exactly as it was.
    public static let notAStore = Code("not-a-store")
    /// The key or passphrase does not open the store.
    public static let wrongKey = Code("wrong-key")
    /// The store was written by a newer version of this software.
    public static let newerSchema = Code("newer-schema")
    /// The disk (or the store's size limit) is full.
    public static let full = Code("full")
    /// The store or its folder is read-only.
    public static let readOnly = Code("read-only")
    /// Another process holds the store too long.
    public static let busy = Code("busy")
    /// The store's server cannot be reached now (refused, lost, restarting,
    /// timed out), after connecting again with backoff: another try later
    /// may succeed. Nothing of the failed call was acknowledged.
    public static let unavailable = Code("unavailable")
    /// A web storage area would outgrow its quota (HTML's
    /// `QuotaExceededError`); nothing was changed.
    public static let quotaExceeded = Code("quota-exceeded")
    /// A named store or file does not exist.
    public static let notFound = Code("not-found")
    /// An argument is not acceptable.
    public static let invalidArgument = Code("invalid-argument")
    /// The operation was cancelled (for example, task cancellation interrupted
    /// a running SQLite statement with `sqlite3_interrupt`).
    public static let cancelled = Code("cancelled")
    /// Encrypted data failed its integrity check (AES-GCM tag): it was
    /// altered, moved to another row, or sealed under another key.
    public static let authenticationFailed = Code("authentication-failed")
    /// A key file is readable or writable by group or others, or is not a
    /// regular file; fix its permissions (`chmod 600`).
    public static let insecureKeyFile = Code("insecure-key-file")
    /// The cryptographic library (OpenSSL) failed for a reason other than a
    /// wrong key or damaged data.
    public static let crypto = Code("crypto")
  }

  /// The kind of failure.
  public let code: Code
  /// A human-readable message without secrets.
  public let message: String
  /// The underlying error, if any.
  public let underlying: (any Error & Sendable)?

  /// Creates an error.
  public init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil) {
    self.code = code
    self.message = message
    self.underlying = underlying
  }

  public var description: String { message }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
