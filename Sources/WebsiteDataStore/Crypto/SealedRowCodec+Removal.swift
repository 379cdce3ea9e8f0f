internal import COpenSSL
import CookieCore

/// The rows of the `cookie_removals` table (Migrations/0005_change_sequence.sql):
/// what another store needs to find a removed cookie in its jar, and no
/// more.
///
/// - `identity_hash`: the removed cookie's ``SealedRowCodec/identityHash(_:)``.
/// - `sealed`: AES-256-GCM of the identity (name, domain, a host-only byte,
///   path, partition key: the fields of the identity hash's input, encoded as
///   in the cookie rows), never the value. The associated data is
///   ``removalSealLabel``, the identity hash and the cause byte, so a sealed
///   identity moved to another row, or its cause altered, fails to open.
extension SealedRowCodec {
  /// The prefix of every removal row's associated data.
  static let removalSealLabel = Array("websitedata cookie removal v1".utf8)

  /// Seals the identity of a cookie removed for `cause`.
  func removalRow(for identity: CookieIdentity, cause: CookieChange.Cause) throws
    -> CookieRemovalRow
  {
    let hash = try identityHash(identity)
    let bound =
      1 + Encoder.bound(identity.name) + Encoder.bound(identity.domain)
      + Encoder.bound(identity.path) + Encoder.bound(identity.partitionKey)
    let buffer = reserveScratch(bound)
    var encoder = Encoder(buffer)
    encoder.append(identity.name)
    encoder.append(identity.domain)
    encoder.append(identity.isHostOnly ? 1 : 0)
    encoder.append(identity.path)
    encoder.append(identity.partitionKey)
    defer { OPENSSL_cleanse(buffer.baseAddress, encoder.count) }
    let plaintext = UnsafeRawBufferPointer(rebasing: buffer[..<encoder.count])
    let sealed = try cipher.seal(
      plaintext, associatedData: Self.removalAssociatedData(hash, cause: Int64(cause.rawValue)))
    return CookieRemovalRow(identityHash: hash, cause: Int64(cause.rawValue), sealed: sealed)
  }

  /// The removal a row records. Throws `.authenticationFailed` or `.corrupt`
  /// for a damaged row.
  func removal(_ row: CookieRemovalRow) throws -> CookieRemoval {
    guard let hash = row.identityHash, let cause = CookieChange.Cause(rawValue: Int(row.cause)),
      cause != .inserted
    else { throw WebsiteDataStoreError(.corrupt, "a cookie removal has an invalid column") }
    var opened = try cipher.open(
      row.sealed, associatedData: Self.removalAssociatedData(hash, cause: row.cause))
    defer { OPENSSL_cleanse(&opened, opened.count) }
    let identity = try opened.withUnsafeBytes { bytes -> CookieIdentity in
      var reader = FieldReader(bytes: bytes)
      let name = try reader.string()
      let domain = try reader.string()
      let hostOnly = try reader.byte()
      let path = try reader.string()
      let partitionKey = try reader.partition()
      guard reader.isAtEnd, hostOnly <= 1 else { throw FieldReader.damaged }
      return CookieIdentity(
        name: name, domain: domain, isHostOnly: hostOnly == 1, path: path,
        partitionKey: partitionKey)
    }
    guard try identityHash(identity) == hash else {
      throw WebsiteDataStoreError(.corrupt, "a cookie removal does not match its identity")
    }
    return CookieRemoval(identity: identity, cause: cause)
  }

  private static func removalAssociatedData(_ hash: RowHash, cause: Int64) -> [UInt8] {
    var bytes = removalSealLabel
    hash.withUnsafeBytes { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(truncatingIfNeeded: cause))
    return bytes
  }
}

/// One row of the `cookie_removals` table as stored.
struct CookieRemovalRow: Sendable {
  /// `nil` when the column does not hold a 16-byte blob.
  var identityHash: RowHash?
  var cause: Int64
  var sealed: [UInt8]
}
