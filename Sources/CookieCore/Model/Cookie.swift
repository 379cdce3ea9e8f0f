import Foundation

/// A canonical cookie: every field the store keeps (RFC 6265bis §5.7), always
/// valid once constructed by one of the provenance-named constructors.
///
/// Identity is (name, domain, host-only, path, partition key): a cookie with
/// the same identity replaces an older one and keeps its creation time.
///
/// The `description` never shows the value.
public struct Cookie: Sendable, Hashable {
  /// The fields, shared by copies and copied on write: a cookie travels
  /// through results, change lists and the jar, and a copy is one retain.
  /// (`nonisolated(unsafe)`: see ``Storage`` for why sharing it is safe.)
  nonisolated(unsafe) private(set) var storage: Storage

  /// The cookie name; empty for a nameless cookie (`Set-Cookie: foo`).
  public package(set) var name: String {
    get { String(decoding: storage.nameBytes, as: UTF8.self) }
    set { rebuild(name: newValue) }
  }
  /// The cookie value, exactly as received (quotes kept).
  public package(set) var value: String {
    get { String(decoding: storage.valueBytes, as: UTF8.self) }
    set { rebuild(value: newValue) }
  }
  /// The canonical domain: lower-case ASCII, no leading dot.
  public package(set) var domain: String {
    get { storage.fields.pointee.domain }
    set { uniqueStorage().fields.pointee.domain = newValue }
  }
  /// True when the cookie is sent only to `domain` itself (no Domain attribute).
  public package(set) var isHostOnly: Bool {
    get { storage.fields.pointee.isHostOnly }
    set { uniqueStorage().fields.pointee.isHostOnly = newValue }
  }
  /// The cookie path (an explicit `Path` or the default-path, §5.1.4).
  public package(set) var path: String {
    get { String(decoding: storage.pathBytes, as: UTF8.self) }
    set { rebuild(path: newValue) }
  }
  /// When the cookie expires; `nil` for a session cookie.
  public package(set) var expiresAt: Date? {
    get { storage.fields.pointee.expiresAt }
    set { uniqueStorage().fields.pointee.expiresAt = newValue }
  }
  /// When the cookie was first created (kept when it is replaced).
  public package(set) var createdAt: Date {
    get { storage.fields.pointee.createdAt }
    set { uniqueStorage().fields.pointee.createdAt = newValue }
  }
  /// When the cookie was last sent or set.
  public package(set) var lastAccessedAt: Date {
    get { storage.fields.pointee.lastAccessedAt }
    set { uniqueStorage().fields.pointee.lastAccessedAt = newValue }
  }
  /// When the cookie was last written (set or replaced); used by "modified since".
  public package(set) var lastUpdatedAt: Date {
    get { storage.fields.pointee.lastUpdatedAt }
    set { uniqueStorage().fields.pointee.lastUpdatedAt = newValue }
  }
  /// `Secure`: sent only to secure origins.
  public package(set) var isSecure: Bool {
    get { storage.fields.pointee.isSecure }
    set { uniqueStorage().fields.pointee.isSecure = newValue }
  }
  /// `HttpOnly`: invisible to script APIs.
  public package(set) var isHTTPOnly: Bool {
    get { storage.fields.pointee.isHTTPOnly }
    set { uniqueStorage().fields.pointee.isHTTPOnly = newValue }
  }
  /// The `SameSite` attribute, with `unspecified` kept distinct from `none`.
  public package(set) var sameSite: SameSite {
    get { storage.fields.pointee.sameSite }
    set { uniqueStorage().fields.pointee.sameSite = newValue }
  }
  /// The partition (CHIPS) this cookie lives in; `nil` for an unpartitioned cookie.
  public package(set) var partitionKey: CookiePartitionKey? {
    get { storage.fields.pointee.partitionKey }
    set { uniqueStorage().fields.pointee.partitionKey = newValue }
  }
  /// Whether the setting origin was secure.
  public package(set) var sourceScheme: CookieSourceScheme {
    get { storage.fields.pointee.sourceScheme }
    set { uniqueStorage().fields.pointee.sourceScheme = newValue }
  }
  /// The port of the setting origin; `nil` when unknown.
  public package(set) var sourcePort: Int? {
    get { storage.fields.pointee.sourcePort }
    set { uniqueStorage().fields.pointee.sourcePort = newValue }
  }
  /// Who set the cookie.
  public package(set) var source: CookieSource {
    get { storage.fields.pointee.source }
    set { uniqueStorage().fields.pointee.source = newValue }
  }

  /// Creates a cookie from stored fields (persistence, imports, the
  /// parser): the caller vouches for validity, so this is for the package
  /// alone. Code outside it makes cookies with ``sanitized(url:name:value:domain:path:expiresAt:isSecure:isHTTPOnly:sameSite:partitionKey:now:configuration:facts:)``
  /// (or receives them from a store), and the store re-checks every cookie
  /// set through its API.
  package init(
    name: String, value: String, domain: String, isHostOnly: Bool, path: String,
    expiresAt: Date?, createdAt: Date, lastAccessedAt: Date, lastUpdatedAt: Date? = nil,
    isSecure: Bool, isHTTPOnly: Bool, sameSite: SameSite, partitionKey: CookiePartitionKey?,
    sourceScheme: CookieSourceScheme, sourcePort: Int?, source: CookieSource
  ) {
    storage = Storage.make(
      Fields(
        domain: domain, createdAt: createdAt, lastAccessedAt: lastAccessedAt,
        lastUpdatedAt: lastUpdatedAt ?? createdAt, partitionKey: partitionKey,
        isHostOnly: isHostOnly, isSecure: isSecure, isHTTPOnly: isHTTPOnly, sameSite: sameSite,
        sourceScheme: sourceScheme, source: source, expiresAt: expiresAt, sourcePort: sourcePort),
      name: name, value: value, path: path)
  }

  /// A cookie sharing `storage`.
  init(storage: Storage) { self.storage = storage }

  /// The storage, copied first when another cookie shares it.
  private mutating func uniqueStorage() -> Storage {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    return storage
  }

  /// Changes the name, the value or the path: a new storage with the new bytes.
  private mutating func rebuild(name: String? = nil, value: String? = nil, path: String? = nil) {
    storage = Storage.make(
      storage.fields.pointee, name: name ?? self.name, value: value ?? self.value,
      path: path ?? self.path)
  }

  /// Equal when every field is (names, values and paths byte for byte).
  public static func == (lhs: Cookie, rhs: Cookie) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.hasEqualContents(rhs.storage)
  }

  public func hash(into hasher: inout Hasher) { storage.hash(into: &hasher) }

  /// A session cookie lives until the store (or the session) ends.
  public var isSession: Bool { expiresAt == nil }

  /// Whether the cookie is partitioned (CHIPS).
  public var isPartitioned: Bool { storage.fields.pointee.partitionKey != nil }

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
  public var byteCount: Int {
    let counts = storage.counts
    return Int(counts.name) + Int(counts.value)
  }

  /// `name=value`, or just the value for a nameless cookie (§5.8.3 step 4).
  public var headerPair: String { String(decoding: storage.pair, as: UTF8.self) }
}

/// The identity of a cookie: two cookies with equal identities cannot both be
/// in a store.
public struct CookieIdentity: Sendable, Hashable {
  public var name: String
  public var domain: String
  public var isHostOnly: Bool
  public var path: String
  public var partitionKey: CookiePartitionKey?

  /// Creates an identity.
  public init(
    name: String, domain: String, isHostOnly: Bool, path: String,
    partitionKey: CookiePartitionKey?
  ) {
    self.name = name
    self.domain = domain
    self.isHostOnly = isHostOnly
    self.path = path
    self.partitionKey = partitionKey
  }
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
