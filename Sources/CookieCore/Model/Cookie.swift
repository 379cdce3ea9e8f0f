import Foundation

/// A canonical cookie: every field the store keeps (RFC 6265bis §5.7), always
/// valid once constructed by one of the provenance-named constructors.
///
/// Identity is (name, domain, host-only, path, partition key): a cookie with
/// the same identity replaces an older one and keeps its creation time.
///
/// The `description` never shows the value.
public struct Cookie: Sendable, Hashable {
  /// The cookie name; empty for a nameless cookie (`Set-Cookie: foo`).
  public var name: String
  /// The cookie value, exactly as received (quotes kept).
  public var value: String
  /// The canonical domain: lower-case ASCII, no leading dot.
  public var domain: String
  /// True when the cookie is sent only to `domain` itself (no Domain attribute).
  public var isHostOnly: Bool
  /// The cookie path (an explicit `Path` or the default-path, §5.1.4).
  public var path: String
  /// When the cookie expires; `nil` for a session cookie.
  public var expiresAt: Date?
  /// When the cookie was first created (kept when it is replaced).
  public var createdAt: Date
  /// When the cookie was last sent or set.
  public var lastAccessedAt: Date
  /// When the cookie was last written (set or replaced); used by "modified since".
  public var lastUpdatedAt: Date
  /// `Secure`: sent only to secure origins.
  public var isSecure: Bool
  /// `HttpOnly`: invisible to script APIs.
  public var isHTTPOnly: Bool
  /// The `SameSite` attribute, with `unspecified` kept distinct from `none`.
  public var sameSite: SameSite
  /// The partition (CHIPS) this cookie lives in; `nil` for an unpartitioned cookie.
  public var partitionKey: CookiePartitionKey?
  /// Whether the setting origin was secure.
  public var sourceScheme: CookieSourceScheme
  /// The port of the setting origin; `nil` when unknown.
  public var sourcePort: Int?
  /// Who set the cookie.
  public var source: CookieSource

  /// Creates a cookie from stored fields (persistence, imports, the API).
  /// Callers vouch for validity; the store re-checks API-set cookies.
  public init(
    name: String, value: String, domain: String, isHostOnly: Bool, path: String,
    expiresAt: Date?, createdAt: Date, lastAccessedAt: Date, lastUpdatedAt: Date? = nil,
    isSecure: Bool, isHTTPOnly: Bool, sameSite: SameSite, partitionKey: CookiePartitionKey?,
    sourceScheme: CookieSourceScheme, sourcePort: Int?, source: CookieSource
  ) {
    self.name = name
    self.value = value
    self.domain = domain
    self.isHostOnly = isHostOnly
    self.path = path
    self.expiresAt = expiresAt
    self.createdAt = createdAt
    self.lastAccessedAt = lastAccessedAt
    self.lastUpdatedAt = lastUpdatedAt ?? createdAt
    self.isSecure = isSecure
    self.isHTTPOnly = isHTTPOnly
    self.sameSite = sameSite
    self.partitionKey = partitionKey
    self.sourceScheme = sourceScheme
    self.sourcePort = sourcePort
    self.source = source
  }

  /// A session cookie lives until the store (or the session) ends.
  public var isSession: Bool { expiresAt == nil }

  /// Whether the cookie is partitioned (CHIPS).
  public var isPartitioned: Bool { partitionKey != nil }

  /// The identity that a newer cookie replaces (RFC 6265bis §5.7 step 22, plus
  /// the partition key).
  public var identity: CookieIdentity {
    CookieIdentity(
      name: name, domain: domain, isHostOnly: isHostOnly, path: path, partitionKey: partitionKey)
  }

  /// Whether the cookie has expired at `now` (expiry at or before now).
  public func isExpired(at now: Date) -> Bool {
    guard let expiresAt else { return false }
    return expiresAt <= now
  }

  /// The bytes this cookie costs against size limits: name plus value.
  public var byteCount: Int { name.utf8.count + value.utf8.count }

  /// `name=value`, or just the value for a nameless cookie (§5.8.3 step 4).
  public var headerPair: String { name.isEmpty ? value : "\(name)=\(value)" }
}

/// The identity of a cookie: two cookies with equal identities cannot both be
/// in a store.
public struct CookieIdentity: Sendable, Hashable {
  public var name: String
  public var domain: String
  public var isHostOnly: Bool
  public var path: String
  public var partitionKey: CookiePartitionKey?
}

extension Cookie: CustomStringConvertible, CustomDebugStringConvertible {
  /// A summary without the value (secrets never appear in descriptions).
  public var description: String {
    var parts = ["\(name.isEmpty ? "<nameless>" : name)=<\(value.utf8.count) bytes>"]
    parts.append((isHostOnly ? "host " : "domain ") + domain)
    parts.append("path " + path)
    if isSecure { parts.append("Secure") }
    if isHTTPOnly { parts.append("HttpOnly") }
    parts.append("SameSite=" + sameSite.description)
    if let partitionKey { parts.append("partition " + partitionKey.description) }
    return "Cookie(" + parts.joined(separator: "; ") + ")"
  }

  public var debugDescription: String { description }
}
