import Foundation

/// The rows of the `http_cache` table (Migrations/0007_http_cache.sql),
/// sealed with the same keys as the cookie rows: nothing of a cached
/// response — its URL, partition, fields, body — is stored in the clear.
///
/// - `entry_hash`: HMAC-SHA-256 under the lookup key of `"http cache
///   entry" 0x00`, the partition key and the URL (length-prefixed),
///   truncated to 128 bits (``RowHash``): the table's unique key.
/// - `site_hash`, `top_level_site_hash`, `frame_site_hash`: the same of the
///   URL's site and of the partition's two sites, for removal by site.
/// - `sealed`: AES-256-GCM of the whole entry (``LengthPrefixedFields``).
///   The associated data is ``httpCacheSealLabel`` followed by every other
///   column (the four hashes, `modified` as little-endian IEEE 754 bits), so
///   a sealed entry moved to another row, or any column altered, fails to
///   open.
extension SealedRowCodec {
  /// The prefix of every cache row's associated data.
  static let httpCacheSealLabel = Array("websitedata http cache row v1".utf8)
  private static let entryLabel = Array("http cache entry\0".utf8)
  private static let cacheSiteLabel = Array("http cache site\0".utf8)

  /// The keyed hash of one entry's key (the `entry_hash` column).
  func httpCacheEntryHash(url: String, partition: HTTPCachePartitionKey) throws -> RowHash {
    try httpCacheHash(
      Self.entryLabel,
      LengthPrefixedFields.encoded(
        strings: [
          partition.topLevelSite, partition.frameSite, partition.hasCrossSiteAncestor ? "1" : "0",
          url,
        ]))
  }

  /// The keyed hash of a site (the three site columns).
  func httpCacheSiteHash(_ site: String) throws -> RowHash {
    try httpCacheHash(Self.cacheSiteLabel, LengthPrefixedFields.encoded(strings: [site]))
  }

  private func httpCacheHash(_ label: [UInt8], _ bytes: [UInt8]) throws -> RowHash {
    try (label + bytes).withUnsafeBytes { input in
      try RowHash { try lookup.mac(input, truncatedInto: $0) }
    }
  }

  /// Seals `entry` into the columns of its row.
  func httpCacheRow(for entry: HTTPCacheEntry) throws -> HTTPCacheRow {
    let partition = entry.partitionKey
    var row = HTTPCacheRow(
      id: 0, entryHash: try httpCacheEntryHash(url: entry.url, partition: partition),
      siteHash: try httpCacheSiteHash(entry.site),
      topLevelSiteHash: try httpCacheSiteHash(partition.topLevelSiteName),
      frameSiteHash: try httpCacheSiteHash(partition.frameSiteName), sealed: [],
      modified: entry.responseTime.timeIntervalSince1970)
    guard let associatedData = row.associatedData else {
      throw WebsiteDataStoreError(.crypto, "a cache row could not be sealed")
    }
    row.sealed = try cipher.seal(Self.plaintext(of: entry), associatedData: associatedData)
    return row
  }

  /// The entries of `rows` that open, as a load at `cursor`; the others
  /// are counted as damaged.
  func httpCacheLoad(_ rows: [HTTPCacheRow], cursor: ChangeCursor) -> RecordLoad<HTTPCacheEntry> {
    load(rows, cursor: cursor, opening: httpCacheEntry)
  }

  /// The entry of `row`. Throws `.authenticationFailed` or `.corrupt` for a
  /// damaged row.
  func httpCacheEntry(_ row: HTTPCacheRow) throws -> HTTPCacheEntry {
    guard let associatedData = row.associatedData, let sealed = row.sealed else {
      throw WebsiteDataStoreError(.corrupt, "a cache row has an invalid column")
    }
    let opened = try cipher.open(sealed, associatedData: associatedData)
    guard let entry = Self.entry(from: opened),
      try httpCacheEntryHash(url: entry.url, partition: entry.partitionKey) == row.entryHash,
      try httpCacheSiteHash(entry.site) == row.siteHash,
      try httpCacheSiteHash(entry.partitionKey.topLevelSiteName) == row.topLevelSiteHash,
      try httpCacheSiteHash(entry.partitionKey.frameSiteName) == row.frameSiteHash
    else { throw WebsiteDataStoreError(.corrupt, "a cache row does not match its hashes") }
    return entry
  }

  // MARK: - The sealed plaintext

  /// The entry's fields: the partition's three parts, URL, site, status,
  /// reason, the two times (IEEE 754 bits), the header count and fields,
  /// the varying request fields (count, then name, presence, value each),
  /// and the body last.
  private static func plaintext(of entry: HTTPCacheEntry) -> [UInt8] {
    func text(_ string: String) -> [UInt8] { Array(string.utf8) }
    func time(_ date: Date) -> [UInt8] {
      withUnsafeBytes(of: date.timeIntervalSince1970.bitPattern.littleEndian) { Array($0) }
    }
    let partition = entry.partitionKey
    var fields: [[UInt8]] = [
      text(partition.topLevelSite), text(partition.frameSite),
      text(partition.hasCrossSiteAncestor ? "1" : "0"), text(entry.url), text(entry.site),
      text(String(entry.status)), text(entry.reasonPhrase), time(entry.requestTime),
      time(entry.responseTime), text(String(entry.headers.count)),
    ]
    for field in entry.headers { fields += [text(field.name), text(field.value)] }
    let varying = entry.varyingRequestFields.sorted { $0.key < $1.key }
    fields.append(text(String(varying.count)))
    for (name, value) in varying {
      fields += [text(name), text(value == nil ? "0" : "1"), text(value ?? "")]
    }
    fields.append(entry.body)
    return LengthPrefixedFields.encoded(fields)
  }

  /// The entry of ``plaintext(of:)``; `nil` unless `bytes` is exactly one.
  private static func entry(from bytes: [UInt8]) -> HTTPCacheEntry? {
    guard let fields = LengthPrefixedFields.decoded(bytes), fields.count >= 12 else { return nil }
    var index = 0
    func next() -> ArraySlice<UInt8>? {
      guard index < fields.count else { return nil }
      defer { index += 1 }
      return fields[index]
    }
    func text() -> String? { next().flatMap { String(validating: $0, as: UTF8.self) } }
    func number() -> Int? { text().flatMap { Int($0) } }
    func time() -> Date? {
      guard let bytes = next(), bytes.count == 8 else { return nil }
      let bits = bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      return Date(timeIntervalSince1970: Double(bitPattern: bits))
    }
    guard let top = text(), let frame = text(), let cross = text(), cross == "0" || cross == "1",
      let url = text(), let site = text(), let status = number(), let reason = text(),
      let requestTime = time(), let responseTime = time(), let headerCount = number(),
      headerCount >= 0, fields.count >= index + 2 * headerCount + 2
    else { return nil }
    var headers: [HTTPCacheEntry.Field] = []
    for _ in 0..<headerCount {
      guard let name = text(), let value = text() else { return nil }
      headers.append(HTTPCacheEntry.Field(name, value))
    }
    guard let varyingCount = number(), varyingCount >= 0,
      fields.count == index + 3 * varyingCount + 1
    else { return nil }
    var varying: [String: String?] = [:]
    for _ in 0..<varyingCount {
      guard let name = text(), let present = text(), let value = text() else { return nil }
      varying[name] = present == "1" ? value : nil
    }
    guard let body = next() else { return nil }
    return HTTPCacheEntry(
      partitionKey: HTTPCachePartitionKey(
        topLevelSite: top, frameSite: frame, hasCrossSiteAncestor: cross == "1"),
      url: url, site: site, status: status, reasonPhrase: reason, headers: headers,
      body: Array(body), requestTime: requestTime, responseTime: responseTime,
      varyingRequestFields: varying)
  }
}

/// One row of the `http_cache` table as stored.
struct HTTPCacheRow: Sendable {
  var id: Int64
  /// `nil` when the column does not hold a 16-byte blob (each hash).
  var entryHash: RowHash?
  var siteHash: RowHash?
  var topLevelSiteHash: RowHash?
  var frameSiteHash: RowHash?
  /// `nil` when the column is not a blob.
  var sealed: [UInt8]?
  var modified: Double

  /// The associated data the row's seal is bound to; `nil` when a column is
  /// invalid.
  var associatedData: [UInt8]? {
    guard let entryHash, let siteHash, let topLevelSiteHash, let frameSiteHash else { return nil }
    var bytes = SealedRowCodec.httpCacheSealLabel
    for hash in [entryHash, siteHash, topLevelSiteHash, frameSiteHash] {
      hash.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }
    withUnsafeBytes(of: modified.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    return bytes
  }
}
