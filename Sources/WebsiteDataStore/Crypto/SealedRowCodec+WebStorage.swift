import Foundation

/// The rows of the `web_storage` table (Migrations/0006_web_storage.sql),
/// sealed with the same keys as the cookie rows.
///
/// - `item_hash`: HMAC-SHA-256 under the lookup key of `"web storage
///   item" 0x00` and the storage key and item key (each length-prefixed),
///   truncated to 128 bits (``RowHash``): the table's unique key.
/// - `area_hash`: the same of the storage key alone, to clear an area.
/// - `site_hash`, `top_level_site_hash`: the same of the origin's site and
///   of the top-level site's name, for removal by site.
/// - `sealed`: AES-256-GCM of the storage key, the item key and the value
///   (length-prefixed). The associated data is ``webStorageSealLabel``
///   followed by every other column of the row (the four hashes, `modified`
///   as little-endian IEEE 754 bits), so a sealed item moved to another
///   row, or any column of its row altered, fails to open.
///
/// The labels keep these hashes and seals apart from the cookie and HSTS
/// rows'.
extension SealedRowCodec {
  /// The prefix of every web storage row's associated data.
  static let webStorageSealLabel = Array("websitedata web storage row v1".utf8)
  private static let itemLabel = Array("web storage item\0".utf8)
  private static let areaLabel = Array("web storage area\0".utf8)
  private static let siteLabel = Array("web storage site\0".utf8)

  /// The keyed hash of one item (the `item_hash` column).
  func webStorageItemHash(_ storageKey: StorageKey, key: String) throws -> RowHash {
    try webStorageHash(Self.itemLabel, Self.encoded(storageKey) + Self.encoded([key]))
  }

  /// The keyed hash of an area (the `area_hash` column).
  func webStorageAreaHash(_ storageKey: StorageKey) throws -> RowHash {
    try webStorageHash(Self.areaLabel, Self.encoded(storageKey))
  }

  /// The keyed hash of a site (the `site_hash` and `top_level_site_hash`
  /// columns).
  func webStorageSiteHash(_ site: String) throws -> RowHash {
    try webStorageHash(Self.siteLabel, Self.encoded([site]))
  }

  private func webStorageHash(_ label: [UInt8], _ bytes: [UInt8]) throws -> RowHash {
    try (label + bytes).withUnsafeBytes { input in
      try RowHash { try lookup.mac(input, truncatedInto: $0) }
    }
  }

  /// Seals `item` into the columns of its row.
  func webStorageRow(for item: WebStorageItem) throws -> WebStorageRow {
    let key = item.storageKey
    var row = WebStorageRow(
      id: 0, itemHash: try webStorageItemHash(key, key: item.key),
      areaHash: try webStorageAreaHash(key), siteHash: try webStorageSiteHash(key.site),
      topLevelSiteHash: try webStorageSiteHash(key.topLevelSiteName), sealed: [],
      modified: item.modifiedAt.timeIntervalSince1970)
    guard let associatedData = row.associatedData else {
      throw WebsiteDataStoreError(.crypto, "a web storage row could not be sealed")
    }
    row.sealed = try cipher.seal(
      Self.encoded(key) + Self.encoded([item.key, item.value]), associatedData: associatedData)
    return row
  }

  /// The items of `rows` that open, as a load at `cursor`; the others are
  /// counted as damaged.
  func webStorageLoad(_ rows: [WebStorageRow], cursor: ChangeCursor) -> RecordLoad<WebStorageItem> {
    load(rows, cursor: cursor, opening: webStorageItem)
  }

  /// The item of `row`. Throws `.authenticationFailed` or `.corrupt` for a
  /// damaged row (altered, swapped, or with an invalid column).
  func webStorageItem(_ row: WebStorageRow) throws -> WebStorageItem {
    guard let associatedData = row.associatedData, let sealed = row.sealed else {
      throw WebsiteDataStoreError(.corrupt, "a web storage row has an invalid column")
    }
    let opened = try cipher.open(sealed, associatedData: associatedData)
    guard let fields = LengthPrefixedFields.decodedStrings(opened), fields.count == 6,
      fields[3] == "0" || fields[3] == "1"
    else { throw WebsiteDataStoreError(.corrupt, "a web storage row does not decode") }
    let storageKey = StorageKey(
      origin: fields[0], site: fields[1], topLevelSite: fields[2],
      hasCrossSiteAncestor: fields[3] == "1")
    guard try webStorageItemHash(storageKey, key: fields[4]) == row.itemHash,
      try webStorageAreaHash(storageKey) == row.areaHash,
      try webStorageSiteHash(storageKey.site) == row.siteHash,
      try webStorageSiteHash(storageKey.topLevelSiteName) == row.topLevelSiteHash
    else { throw WebsiteDataStoreError(.corrupt, "a web storage row does not match its hashes") }
    return WebStorageItem(
      storageKey: storageKey, key: fields[4], value: fields[5],
      modifiedAt: Date(timeIntervalSince1970: row.modified))
  }

  /// The storage key's four parts, length-prefixed.
  private static func encoded(_ key: StorageKey) -> [UInt8] {
    encoded([key.origin, key.site, key.topLevelSite, key.hasCrossSiteAncestor ? "1" : "0"])
  }

  /// Each string length-prefixed (``LengthPrefixedFields``).
  private static func encoded(_ strings: [String]) -> [UInt8] {
    LengthPrefixedFields.encoded(strings: strings)
  }
}

/// One row of the `web_storage` table as stored.
struct WebStorageRow: Sendable {
  var id: Int64
  /// `nil` when the column does not hold a 16-byte blob (each hash).
  var itemHash: RowHash?
  var areaHash: RowHash?
  var siteHash: RowHash?
  var topLevelSiteHash: RowHash?
  /// `nil` when the column is not a blob.
  var sealed: [UInt8]?
  var modified: Double

  /// The associated data the row's seal is bound to; `nil` when a column is
  /// invalid.
  var associatedData: [UInt8]? {
    guard let itemHash, let areaHash, let siteHash, let topLevelSiteHash else { return nil }
    var bytes = SealedRowCodec.webStorageSealLabel
    bytes.reserveCapacity(bytes.count + 4 * RowHash.count + 8)
    for hash in [itemHash, areaHash, siteHash, topLevelSiteHash] {
      hash.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }
    withUnsafeBytes(of: modified.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    return bytes
  }
}
