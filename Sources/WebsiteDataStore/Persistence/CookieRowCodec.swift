import CookieCore
import Foundation

/// Turns cookies into the encrypted rows of the `cookies` table and back
/// (Migrations/0001_cookies.sql).
///
/// The fields that identify a person or a site (name, value, domain, path,
/// partition key) are sealed together with AES-256-GCM; the associated data
/// is the row's `identity_hash`, so a sealed blob moved to another row, or a
/// row's hash altered, fails to open. `identity_hash` and `site_hash` are
/// HMAC-SHA-256 under the store's lookup key: equality lookups without
/// plaintext.
///
/// Not `Sendable`: it owns OpenSSL contexts. Its owner serialises access.
final class CookieRowCodec {
  /// The column list every statement uses, in this order.
  static let columns =
    "identity_hash, site_hash, sealed, host_only, secure, http_only, same_site, expires,"
    + " created, last_access, last_update, source_scheme, source_port, source"

  private let keys: KeyMaterial
  private static let sealLabel = Array("websitedata cookie row v1".utf8)

  init(keys: KeyMaterial) { self.keys = keys }

  /// The data key the codec's keys derive from.
  var dataKey: SecretBytes { keys.dataKey }

  /// The keyed hash of a cookie identity (the table's unique key).
  func identityHash(_ identity: CookieIdentity) throws -> [UInt8] {
    var bytes = Array("identity".utf8)
    Self.appendField(identity.name, to: &bytes)
    Self.appendField(identity.domain, to: &bytes)
    bytes.append(identity.isHostOnly ? 1 : 0)
    Self.appendField(identity.path, to: &bytes)
    Self.appendPartition(identity.partitionKey, to: &bytes)
    return try keys.lookup.mac(bytes)
  }

  /// The keyed hash of a site key (registrable domain), for removal by site.
  func siteHash(_ site: String) throws -> [UInt8] {
    var bytes = Array("site".utf8)
    Self.appendField(site, to: &bytes)
    return try keys.lookup.mac(bytes)
  }

  /// The bound values of one row, in ``columns`` order.
  func row(for cookie: Cookie, site: String) throws -> [SQLiteValue] {
    let identity = try identityHash(cookie.identity)
    var plaintext: [UInt8] = []
    plaintext.reserveCapacity(cookie.name.utf8.count + cookie.value.utf8.count + 64)
    Self.appendField(cookie.name, to: &plaintext)
    Self.appendField(cookie.value, to: &plaintext)
    Self.appendField(cookie.domain, to: &plaintext)
    Self.appendField(cookie.path, to: &plaintext)
    Self.appendPartition(cookie.partitionKey, to: &plaintext)
    let sealed = try keys.cipher.seal(plaintext, associatedData: Self.sealLabel + identity)
    Self.wipe(&plaintext)
    return [
      .blob(identity), .blob(try siteHash(site)), .blob(sealed), .integer(cookie.isHostOnly ? 1 : 0),
      .integer(cookie.isSecure ? 1 : 0), .integer(cookie.isHTTPOnly ? 1 : 0),
      .integer(Int64(cookie.sameSite.rawValue)),
      cookie.expiresAt.map { .real($0.timeIntervalSince1970) } ?? .null,
      .real(cookie.createdAt.timeIntervalSince1970), .real(cookie.lastAccessedAt.timeIntervalSince1970),
      .real(cookie.lastUpdatedAt.timeIntervalSince1970), .integer(Int64(cookie.sourceScheme.rawValue)),
      cookie.sourcePort.map { .integer(Int64($0)) } ?? .null, .integer(Int64(cookie.source.rawValue)),
    ]
  }

  /// A cookie from a row read with ``columns`` (after the row id at index 0).
  /// Throws `.authenticationFailed` or `.corrupt` for a damaged row.
  func cookie(from statement: SQLiteStatement) throws -> Cookie {
    guard let identity = statement.blob(at: 1), let sealed = statement.blob(at: 3),
      let sameSite = SameSite(rawValue: statement.int(at: 7)),
      let sourceScheme = CookieSourceScheme(rawValue: statement.int(at: 12)),
      let source = CookieSource(rawValue: statement.int(at: 14))
    else { throw WebsiteDataStoreError(.corrupt, "a cookie row has an invalid column") }
    var plaintext = try keys.cipher.open(sealed, associatedData: Self.sealLabel + identity)
    defer { Self.wipe(&plaintext) }
    var reader = FieldReader(bytes: plaintext)
    let name = try reader.string()
    let value = try reader.string()
    let domain = try reader.string()
    let path = try reader.string()
    let partitionKey = try reader.partition()
    let cookie = Cookie(
      name: name, value: value, domain: domain, isHostOnly: statement.bool(at: 4), path: path,
      expiresAt: statement.isNull(at: 8) ? nil : Date(timeIntervalSince1970: statement.double(at: 8)),
      createdAt: Date(timeIntervalSince1970: statement.double(at: 9)),
      lastAccessedAt: Date(timeIntervalSince1970: statement.double(at: 10)),
      lastUpdatedAt: Date(timeIntervalSince1970: statement.double(at: 11)),
      isSecure: statement.bool(at: 5), isHTTPOnly: statement.bool(at: 6), sameSite: sameSite,
      partitionKey: partitionKey, sourceScheme: sourceScheme,
      sourcePort: statement.isNull(at: 13) ? nil : statement.int(at: 13), source: source)
    // The sealed fields must describe the identity the row is filed under.
    guard try identityHash(cookie.identity) == identity else {
      throw WebsiteDataStoreError(.corrupt, "a cookie row does not match its identity")
    }
    return cookie
  }

  /// Overwrites a plaintext buffer before it is released.
  private static func wipe(_ bytes: inout [UInt8]) {
    for index in bytes.indices { bytes[index] = 0 }
  }

  private static func appendField(_ string: String, to bytes: inout [UInt8]) {
    let count = UInt32(truncatingIfNeeded: string.utf8.count)
    withUnsafeBytes(of: count.littleEndian) { bytes.append(contentsOf: $0) }
    bytes.append(contentsOf: string.utf8)
  }

  private static func appendPartition(_ key: CookiePartitionKey?, to bytes: inout [UInt8]) {
    guard let key else {
      bytes.append(0)
      return
    }
    bytes.append(key.hasCrossSiteAncestor ? 2 : 1)
    appendField(key.topLevelSite, to: &bytes)
  }

  /// Reads the length-prefixed fields back.
  private struct FieldReader {
    let bytes: [UInt8]
    var offset = 0

    mutating func string() throws -> String {
      guard offset + 4 <= bytes.count else { throw Self.damaged }
      let count = bytes[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
      offset += 4
      guard count >= 0, offset + count <= bytes.count else { throw Self.damaged }
      defer { offset += count }
      guard let string = String(validating: bytes[offset..<offset + count], as: UTF8.self) else {
        throw Self.damaged
      }
      return string
    }

    mutating func partition() throws -> CookiePartitionKey? {
      guard offset < bytes.count else { throw Self.damaged }
      let tag = bytes[offset]
      offset += 1
      switch tag {
      case 0: return nil
      case 1, 2: return CookiePartitionKey(topLevelSite: try string(), hasCrossSiteAncestor: tag == 2)
      default: throw Self.damaged
      }
    }

    static let damaged = WebsiteDataStoreError(.corrupt, "a cookie row's sealed fields are malformed")
  }
}
