import CookieCore
import Foundation
import TextFormats
import WebsiteDataStore

/// The lossless JSON cookie format of `sitedata cookies export --format json`
/// and `cookies list --json`: every field of a ``Cookie``, under a stable,
/// versioned schema (documented in the README).
///
///     {
///       "format": "websitedata-cookies",
///       "version": 1,
///       "cookies": [ { "name": "sid", "value": "…", "domain": "example.com", … } ]
///     }
///
/// Each cookie object has, in this order: `name`, `value`, `domain` (lower
/// case, no leading dot), `hostOnly`, `path`, `expires` (RFC 3339 in UTC, or
/// `null` for a session cookie), `created`, `lastAccessed`, `lastUpdated`,
/// `secure`, `httpOnly`, `sameSite` (`strict`, `lax`, `none` or
/// `unspecified`), `partitionKey` (the top-level site, `https://example.com`,
/// or `null`), `partitionCrossSiteAncestor`, `sourceScheme` (`secure`,
/// `non-secure` or `unset`), `sourcePort` (or `null`) and `source` (`http`,
/// `script` or `api`). Times are kept to the microsecond.
///
/// Reading needs `name`, `value`, `domain` and `path`; every other member may
/// be left out (defaults: host-only, session, times `now`, not Secure, not
/// HttpOnly, SameSite unspecified, unpartitioned, source scheme unset, no
/// port, source `api`). Unknown members are ignored, so later minor additions
/// stay readable; a new `version` is refused.
public enum JSONCookieFile {
  /// The value of the `format` member.
  public static let formatName = "websitedata-cookies"
  /// The schema version this software writes and reads.
  public static let version = 1

  // MARK: - Writing

  /// The whole document for `cookies`, in the order given, as text ending
  /// with a newline. Expired cookies are written like others: filter them
  /// first. Cookies partitioned under an opaque origin
  /// (``CookiePartitionKey/isTransient``) are left out: they belong to one
  /// page, whose nonce no file can carry to another. `progress`, when given,
  /// is called with the number of cookies done every
  /// ``NetscapeCookieFile/progressInterval`` cookies and at the end.
  public static func write(_ cookies: [Cookie], progress: ((Int) -> Void)? = nil) -> String {
    var objects: [JSONValue] = []
    objects.reserveCapacity(cookies.count)
    for (index, cookie) in cookies.enumerated() {
      if let progress, index % NetscapeCookieFile.progressInterval == 0, index > 0 {
        progress(index)
      }
      if cookie.partitionKey?.isTransient != true { objects.append(object(for: cookie)) }
    }
    let text = document(objects: objects).serialized() + "\n"
    progress?(cookies.count)
    return text
  }

  /// The document as a JSON value.
  package static func document(_ cookies: [Cookie]) -> JSONValue {
    document(objects: cookies.map(object(for:)))
  }

  /// The document holding cookie `objects` (``object(for:)``).
  private static func document(objects: [JSONValue]) -> JSONValue {
    .object([
      ("format", .string(formatName)),
      ("version", .integer(Int64(version))),
      ("cookies", .array(objects)),
    ])
  }

  /// One cookie as a JSON object, with every field.
  package static func object(for cookie: Cookie) -> JSONValue {
    .object([
      ("name", .string(cookie.name)),
      ("value", .string(cookie.value)),
      ("domain", .string(cookie.domain)),
      ("hostOnly", .bool(cookie.isHostOnly)),
      ("path", .string(cookie.path)),
      ("expires", .string(cookie.expiresAt.map(RFC3339Timestamp.format))),
      ("created", .string(RFC3339Timestamp.format(cookie.createdAt))),
      ("lastAccessed", .string(RFC3339Timestamp.format(cookie.lastAccessedAt))),
      ("lastUpdated", .string(RFC3339Timestamp.format(cookie.lastUpdatedAt))),
      ("secure", .bool(cookie.isSecure)),
      ("httpOnly", .bool(cookie.isHTTPOnly)),
      ("sameSite", .string(cookie.sameSite.description)),
      ("partitionKey", .string(cookie.partitionKey?.topLevelSite)),
      ("partitionCrossSiteAncestor", .bool(cookie.partitionKey?.hasCrossSiteAncestor ?? false)),
      ("sourceScheme", .string(cookie.sourceScheme.description)),
      ("sourcePort", .integer(cookie.sourcePort)),
      ("source", .string(cookie.source.description)),
    ])
  }

  // MARK: - Reading

  /// Reads a document. An entry of `cookies` that is not a readable cookie
  /// becomes an issue (`cookies[N]: reason`, N from 0) and is skipped; the
  /// other entries are still read.
  ///
  /// - Parameters:
  ///   - bytes: the file (UTF-8 JSON).
  ///   - now: the time members left out default to.
  /// - Throws: ``WebsiteDataStoreError`` when the file is not JSON or not
  ///   such a document (`.corrupt`), or has a newer version (`.newerSchema`),
  ///   as the browser-database readers do.
  ///
  /// The parsing runs outside Swift's cooperative pool (``OffPool``).
  public static func read(_ bytes: [UInt8], now: Date) async throws(WebsiteDataStoreError)
    -> CookieImportResult
  {
    try await OffPool.run { () throws(WebsiteDataStoreError) in try readNow(bytes, now: now) }
  }

  /// The largest document read, in bytes (256 MiB, about a million
  /// cookies): a larger one is refused before it is parsed, and
  /// `sitedata cookies import` stops reading there.
  public static let maximumDocumentSize = 256 << 20

  /// ``read(_:now:)`` on the calling thread.
  private static func readNow(_ bytes: [UInt8], now: Date) throws(WebsiteDataStoreError)
    -> CookieImportResult
  {
    guard bytes.count <= maximumDocumentSize else {
      throw WebsiteDataStoreError(.corrupt, "the document is larger than 256 MiB")
    }
    let root: JSONValue
    do {
      root = try JSONValue.parse(bytes)
    } catch {
      throw WebsiteDataStoreError(.corrupt, error.message)
    }
    guard case .object = root, case .string(let format)? = root["format"], format == formatName
    else {
      throw WebsiteDataStoreError(
        .corrupt,
        "the file is not a sitedata JSON cookie file (an object with \"format\": \"\(formatName)\")"
      )
    }
    guard case .integer(let fileVersion)? = root["version"], fileVersion >= 1 else {
      throw WebsiteDataStoreError(.corrupt, "\"version\" must be a whole number from 1")
    }
    guard fileVersion <= Int64(version) else {
      throw WebsiteDataStoreError(
        .newerSchema,
        "the file has version \(fileVersion); this sitedata reads version \(version)")
    }
    guard case .array(let entries)? = root["cookies"] else {
      throw WebsiteDataStoreError(.corrupt, "\"cookies\" must be an array")
    }
    var result = CookieImportResult()
    for (index, entry) in entries.enumerated() {
      do {
        result.append(try cookie(from: entry, now: now), at: "cookies[\(index)]")
      } catch {
        result.issues.append(CookieImportIssue(location: "cookies[\(index)]", reason: error.reason))
      }
    }
    return result
  }

  /// Why one entry is not a cookie.
  private struct EntryError: Error {
    var reason: String
  }

  private static func cookie(from entry: JSONValue, now: Date) throws(EntryError) -> Cookie {
    guard case .object = entry else {
      throw EntryError(reason: "an entry must be an object, not \(entry.typeName)")
    }
    let fields = EntryFields(entry)
    let domain = try fields.string("domain")
    guard !domain.isEmpty, domain.first != ".", domain.utf8.allSatisfy({ $0 < 0x80 }) else {
      throw EntryError(
        reason: "\"domain\" must be an ASCII host name without a leading dot (see \"hostOnly\")")
    }
    let path = try fields.string("path")
    guard path.first == "/" else { throw EntryError(reason: "\"path\" must start with '/'") }
    let created = try fields.time("created") ?? now
    var partitionKey: CookiePartitionKey?
    if let site = try fields.optionalString("partitionKey") {
      guard let topLevelSite = Self.site(site) else {
        throw EntryError(
          reason: "\"partitionKey\" must be a top-level site like https://example.com")
      }
      partitionKey = CookiePartitionKey(
        topLevelSite: topLevelSite,
        hasCrossSiteAncestor: try fields.bool("partitionCrossSiteAncestor") ?? false)
    }
    var sourcePort: Int?
    if let port = try fields.optionalInteger("sourcePort") {
      guard (0...65535).contains(port) else {
        throw EntryError(reason: "\"sourcePort\" must be a port number (0-65535) or null")
      }
      sourcePort = Int(port)
    }
    return Cookie(
      name: try fields.string("name"), value: try fields.string("value"), domain: domain,
      isHostOnly: try fields.bool("hostOnly") ?? true, path: path,
      expiresAt: try fields.time("expires"), createdAt: created,
      lastAccessedAt: try fields.time("lastAccessed") ?? created,
      lastUpdatedAt: try fields.time("lastUpdated") ?? created,
      isSecure: try fields.bool("secure") ?? false,
      isHTTPOnly: try fields.bool("httpOnly") ?? false,
      sameSite: try fields.choice("sameSite", SameSite.allCases) ?? .unspecified,
      partitionKey: partitionKey,
      sourceScheme: try fields.choice("sourceScheme", CookieSourceScheme.allCases) ?? .unset,
      sourcePort: sourcePort,
      source: try fields.choice("source", CookieSource.allCases) ?? .api)
  }

  /// `scheme://host` of an http(s) site, one trailing slash allowed.
  private static func site(_ text: String) -> String? {
    var text = Substring(text)
    if text.hasSuffix("/") { text = text.dropLast() }
    for scheme in ["https://", "http://"] where text.hasPrefix(scheme) {
      let host = text.dropFirst(scheme.count)
      guard !host.isEmpty, !host.contains("/"), host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
      else { return nil }
      return scheme + host.lowercased()
    }
    return nil
  }

  /// Typed access to the members of one entry, with messages that name the
  /// member and the expected type, never the value.
  private struct EntryFields {
    let entry: JSONValue

    init(_ entry: JSONValue) { self.entry = entry }

    func string(_ key: String) throws(EntryError) -> String {
      guard let value = entry[key] else { throw EntryError(reason: "\"\(key)\" is missing") }
      guard case .string(let string) = value else { throw wrongType(key, "a string", value) }
      return string
    }

    func optionalString(_ key: String) throws(EntryError) -> String? {
      switch entry[key] {
      case nil, .null?: return nil
      case .string(let string)?: return string
      case let value?: throw wrongType(key, "a string or null", value)
      }
    }

    func bool(_ key: String) throws(EntryError) -> Bool? {
      switch entry[key] {
      case nil: return nil
      case .bool(let flag)?: return flag
      case let value?: throw wrongType(key, "true or false", value)
      }
    }

    func optionalInteger(_ key: String) throws(EntryError) -> Int64? {
      switch entry[key] {
      case nil, .null?: return nil
      case .integer(let number)?: return number
      case let value?: throw wrongType(key, "a whole number or null", value)
      }
    }

    func time(_ key: String) throws(EntryError) -> Date? {
      guard let text = try optionalString(key) else { return nil }
      guard let date = RFC3339Timestamp.parse(text) else {
        throw EntryError(
          reason: "\"\(key)\" must be an RFC 3339 time like 2026-01-01T00:00:00Z, or null")
      }
      return date
    }

    func choice<T: CustomStringConvertible>(_ key: String, _ cases: [T]) throws(EntryError) -> T? {
      guard let name = try optionalString(key) else { return nil }
      guard let match = cases.first(where: { $0.description == name }) else {
        let names = cases.map(\.description).joined(separator: ", ")
        throw EntryError(reason: "\"\(key)\" must be one of \(names)")
      }
      return match
    }

    private func wrongType(_ key: String, _ expected: String, _ value: JSONValue) -> EntryError {
      EntryError(reason: "\"\(key)\" must be \(expected), not \(value.typeName)")
    }
  }
}
