import Foundation

/// The rows of the `hsts` table (Migrations/0002_hsts.sql), sealed with the
/// same keys as the cookie rows.
///
/// - `host_hash`: HMAC-SHA-256 under the lookup key of `"hsts host" 0x00
///   host`, truncated to 128 bits (``RowHash``), the table's unique key.
/// - `site_hash`: the same of `"hsts site" 0x00 site`, for removal by site.
/// - `sealed`: AES-256-GCM of the host's UTF-8 bytes. The associated data
///   is ``hstsSealLabel`` followed by every other column of the row
///   (`host_hash`, `site_hash`, `include_subdomains` as one byte, `expires`
///   and `created` as little-endian IEEE 754 bits), so a sealed host moved
///   to another row, or any column of its row altered, fails to open.
///
/// The labels keep these hashes and seals apart from the cookie rows'.
extension SealedRowCodec {
  /// The prefix of every HSTS row's associated data.
  static let hstsSealLabel = Array("websitedata hsts row v1".utf8)
  private static let hstsHostLabel = Array("hsts host\0".utf8)
  private static let hstsSiteLabel = Array("hsts site\0".utf8)

  /// The keyed hash of an HSTS host (the `host_hash` column).
  func hstsHostHash(_ host: String) throws -> RowHash {
    try hstsHash(Self.hstsHostLabel, host)
  }

  /// The keyed hash of a site (the `site_hash` column).
  func hstsSiteHash(_ site: String) throws -> RowHash {
    try hstsHash(Self.hstsSiteLabel, site)
  }

  private func hstsHash(_ label: [UInt8], _ name: String) throws -> RowHash {
    let input = label + Array(name.utf8)
    return try input.withUnsafeBytes { input in
      try RowHash { try lookup.mac(input, truncatedInto: $0) }
    }
  }

  /// Seals `entry` of `site` into the columns of its row.
  func hstsRow(for entry: HSTSEntry, site: String) throws -> HSTSRow {
    var row = HSTSRow(
      id: 0, hostHash: try hstsHostHash(entry.host), siteHash: try hstsSiteHash(site),
      sealed: [], includeSubdomains: entry.includesSubdomains ? 1 : 0,
      expires: entry.expiresAt.timeIntervalSince1970,
      created: entry.createdAt.timeIntervalSince1970)
    guard let associatedData = row.associatedData else {
      throw WebsiteDataStoreError(.crypto, "an HSTS row could not be sealed")
    }
    row.sealed = try cipher.seal(entry.host.utf8, associatedData: associatedData)
    return row
  }

  /// The entries of `rows` that open, as a load at `cursor`; the others
  /// are counted as damaged.
  func hstsLoad(_ rows: [HSTSRow], cursor: ChangeCursor) -> RecordLoad<HSTSEntry> {
    load(rows, cursor: cursor, opening: hstsEntry)
  }

  /// The entry of `row`. Throws `.authenticationFailed` or `.corrupt` for a
  /// damaged row (altered, swapped, or with an invalid column).
  func hstsEntry(_ row: HSTSRow) throws -> HSTSEntry {
    guard let associatedData = row.associatedData, let hostHash = row.hostHash,
      let sealed = row.sealed
    else { throw WebsiteDataStoreError(.corrupt, "an HSTS row has an invalid column") }
    let opened = try cipher.open(sealed, associatedData: associatedData)
    guard let host = String(validating: opened, as: UTF8.self), !host.isEmpty,
      try hstsHostHash(host) == hostHash
    else { throw WebsiteDataStoreError(.corrupt, "an HSTS row does not match its host hash") }
    return HSTSEntry(
      host: host, includesSubdomains: row.includeSubdomains == 1,
      expiresAt: Date(timeIntervalSince1970: row.expires),
      createdAt: Date(timeIntervalSince1970: row.created))
  }
}

/// One row of the `hsts` table as stored.
struct HSTSRow: Sendable {
  var id: Int64
  /// `nil` when the column does not hold a 16-byte blob.
  var hostHash: RowHash?
  /// `nil` when the column does not hold a 16-byte blob.
  var siteHash: RowHash?
  /// `nil` when the column is not a blob.
  var sealed: [UInt8]?
  var includeSubdomains: Int64
  var expires: Double
  var created: Double

  /// The associated data the row's seal is bound to; `nil` when a column is
  /// invalid.
  var associatedData: [UInt8]? {
    guard let hostHash, let siteHash, includeSubdomains == 0 || includeSubdomains == 1 else {
      return nil
    }
    var bytes = SealedRowCodec.hstsSealLabel
    bytes.reserveCapacity(bytes.count + 2 * RowHash.count + 17)
    hostHash.withUnsafeBytes { bytes.append(contentsOf: $0) }
    siteHash.withUnsafeBytes { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(includeSubdomains))
    withUnsafeBytes(of: expires.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    withUnsafeBytes(of: created.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    return bytes
  }
}
