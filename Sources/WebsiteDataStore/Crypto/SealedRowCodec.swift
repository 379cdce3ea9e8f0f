internal import COpenSSL
import CookieCore
import Foundation

/// Turns cookies into the encrypted rows of the `cookies` table and back
/// (Migrations/0001_cookies.sql).
///
/// The fields that identify a person or a site (name, value, domain, path,
/// partition key) are sealed together with AES-256-GCM; the associated data
/// is ``sealLabel`` followed by the row's `identity_hash` and every other
/// column that changes behaviour (host-only, Secure, HttpOnly, SameSite,
/// expiry, the creation, access and update times, the source scheme, port and
/// kind; ``CookieRowColumns``), so a sealed blob moved to another row, or any
/// column of its row altered, fails to open. `identity_hash` is HMAC-SHA-256
/// under the store's lookup key, truncated to 128 bits (``RowHash``):
/// equality lookups without plaintext.
///
/// Rows of stores written before Migrations/0003 bound only the identity
/// hash (``RowSeal/identityOnly``); ``CookieRowSealUpgrade`` re-seals them
/// once, in one transaction, when such a store is opened.
///
/// The plaintext is the fields in that order, each a LEB128 byte count and
/// its UTF-8 bytes; the partition key is a tag byte (0 none, 1 same-site
/// ancestors, 2 cross-site ancestor) followed by its top-level site.
///
/// Not `Sendable`: it owns OpenSSL contexts and scratch buffers. Its owner
/// serialises access; for work on another thread make another codec from
/// the same ``keys``.
final class SealedRowCodec {
  /// The keys a codec works with; `Sendable`, to make a codec per thread.
  struct Keys: Sendable {
    let dataKey: SecretBytes
    let encryptionKey: SecretBytes
    let lookupKey: SecretBytes
  }

  /// How a row's associated data is made.
  enum RowSeal {
    /// ``sealLabel``, the identity hash and every behaviour column: how
    /// every row is sealed and read.
    case allColumns
    /// ``identityOnlySealLabel`` and the identity hash: rows written before
    /// Migrations/0003, read only to be re-sealed.
    case identityOnly
  }

  /// The prefix of every row's associated data (then the identity hash and
  /// the columns).
  static let sealLabel = Array("websitedata cookie row v2".utf8)
  /// The prefix of a ``RowSeal/identityOnly`` row's associated data.
  static let identityOnlySealLabel = Array("websitedata cookie row v1".utf8)
  /// The prefix of every identity hash input.
  private static let identityLabel = Array("identity".utf8)

  let keys: Keys
  let cipher: AEADCipher
  let lookup: KeyedHash
  /// Scratch for plaintexts and hash inputs (grown when a cookie needs
  /// more): the bytes written are wiped after each use.
  private var scratch: UnsafeMutableRawBufferPointer
  /// Room for the longest associated data: a label, an identity hash and
  /// ``CookieRowColumns/encodedCount`` bytes of columns.
  private let associatedData: UnsafeMutableRawBufferPointer

  init(keys: KeyMaterial) {
    self.keys = Keys(
      dataKey: keys.dataKey, encryptionKey: keys.encryptionKey, lookupKey: keys.lookupKey)
    cipher = keys.cipher
    lookup = keys.lookup
    (scratch, associatedData) = Self.allocateBuffers()
  }

  /// A codec with its own OpenSSL contexts for `keys`.
  init(keys: Keys) throws {
    self.keys = keys
    cipher = try AEADCipher(key: keys.encryptionKey)
    lookup = try KeyedHash(key: keys.lookupKey)
    (scratch, associatedData) = Self.allocateBuffers()
  }

  deinit {
    OPENSSL_cleanse(scratch.baseAddress, scratch.count)
    scratch.deallocate()
    associatedData.deallocate()
  }

  private static func allocateBuffers() -> (
    UnsafeMutableRawBufferPointer, UnsafeMutableRawBufferPointer
  ) {
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 512, alignment: 8)
    scratch.initializeMemory(as: UInt8.self, repeating: 0)
    let associatedData = UnsafeMutableRawBufferPointer.allocate(
      byteCount: sealLabel.count + RowHash.count + CookieRowColumns.encodedCount, alignment: 8)
    associatedData.initializeMemory(as: UInt8.self, repeating: 0)
    return (scratch, associatedData)
  }

  /// The data key the codec's keys derive from.
  var dataKey: SecretBytes { keys.dataKey }

  // MARK: - Identity

  /// The keyed hash of a cookie identity (the table's unique key).
  func identityHash(_ identity: CookieIdentity) throws -> RowHash {
    try identityHash(
      name: identity.name, domain: identity.domain, isHostOnly: identity.isHostOnly,
      path: identity.path, partitionKey: identity.partitionKey)
  }

  private func identityHash(
    name: String, domain: String, isHostOnly: Bool, path: String,
    partitionKey: CookiePartitionKey?
  ) throws -> RowHash {
    let bound =
      Self.identityLabel.count + 1 + Encoder.bound(name) + Encoder.bound(domain)
      + Encoder.bound(path) + Encoder.bound(partitionKey)
    let buffer = reserveScratch(bound)
    var encoder = Encoder(buffer)
    encoder.append(Self.identityLabel)
    encoder.append(name)
    encoder.append(domain)
    encoder.append(isHostOnly ? 1 : 0)
    encoder.append(path)
    encoder.append(partitionKey)
    let input = UnsafeRawBufferPointer(rebasing: buffer[..<encoder.count])
    defer { OPENSSL_cleanse(buffer.baseAddress, encoder.count) }
    return try RowHash { try lookup.mac(input, truncatedInto: $0) }
  }

  // MARK: - Writing

  /// Seals `cookie` into a new row of `batch`; returns the row's index.
  func appendRow(for cookie: Cookie, to batch: inout CookieRowBatch) throws -> Int {
    let identity = try identityHash(
      name: cookie.name, domain: cookie.domain, isHostOnly: cookie.isHostOnly, path: cookie.path,
      partitionKey: cookie.partitionKey)
    let bound =
      Encoder.bound(cookie.name) + Encoder.bound(cookie.value) + Encoder.bound(cookie.domain)
      + Encoder.bound(cookie.path) + Encoder.bound(cookie.partitionKey)
    let buffer = reserveScratch(bound)
    var encoder = Encoder(buffer)
    encoder.append(cookie.name)
    encoder.append(cookie.value)
    encoder.append(cookie.domain)
    encoder.append(cookie.path)
    encoder.append(cookie.partitionKey)
    defer { OPENSSL_cleanse(buffer.baseAddress, encoder.count) }
    let columns = CookieRowColumns(cookie)
    let adCount = setAssociatedData(identity: identity, columns: columns, seal: .allColumns)
    let start = batch.sealed.count
    let count = try cipher.seal(
      UnsafeRawBufferPointer(rebasing: buffer[..<encoder.count]),
      associatedData: UnsafeRawBufferPointer(rebasing: associatedData[..<adCount]),
      appendingTo: &batch.sealed)
    batch.rows.append(
      CookieRowBatch.Row(
        identity: identity, sealedStart: start, sealedCount: count, columns: columns))
    return batch.rows.count - 1
  }

  /// Seals `cookie` into a new row of `batch` and adds the statement that
  /// refreshes its stored row's access time (``CookieRowBatch/Operation/touch(_:)``).
  func appendTouch(for cookie: Cookie, to batch: inout CookieRowBatch) throws {
    batch.operations.append(.touch(try appendRow(for: cookie, to: &batch)))
  }

  // MARK: - Reading

  /// The cookie of `row`, whose sealed blob is in `sealed` (the snapshot's
  /// buffer), sealed as `seal` says. Throws `.authenticationFailed` or
  /// `.corrupt` for a damaged row.
  func cookie(_ row: CookieRowSnapshot.Row, sealed: UnsafeRawBufferPointer, seal: RowSeal) throws
    -> Cookie
  {
    let columns = row.columns
    guard let identity = row.identity, row.sealedCount >= 0,
      let sameSite = SameSite(rawValue: Int(columns.sameSite)),
      let sourceScheme = CookieSourceScheme(rawValue: Int(columns.sourceScheme)),
      let source = CookieSource(rawValue: Int(columns.source))
    else { throw WebsiteDataStoreError(.corrupt, "a cookie row has an invalid column") }
    let adCount = setAssociatedData(identity: identity, columns: columns, seal: seal)
    let buffer = reserveScratch(row.sealedCount)
    let count = try cipher.open(
      UnsafeRawBufferPointer(rebasing: sealed[row.sealedStart..<row.sealedStart + row.sealedCount]),
      associatedData: UnsafeRawBufferPointer(rebasing: associatedData[..<adCount]), into: buffer)
    var reader = FieldReader(bytes: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    let name: String
    let value: String
    let domain: String
    let path: String
    let partitionKey: CookiePartitionKey?
    do {
      defer { OPENSSL_cleanse(buffer.baseAddress, count) }
      name = try reader.string()
      value = try reader.string()
      domain = try reader.string()
      path = try reader.string()
      partitionKey = try reader.partition()
      guard reader.isAtEnd else { throw FieldReader.damaged }
    }
    // The sealed fields must describe the identity the row is filed under.
    let computed = try identityHash(
      name: name, domain: domain, isHostOnly: columns.isHostOnly, path: path,
      partitionKey: partitionKey)
    guard computed == identity else {
      throw WebsiteDataStoreError(.corrupt, "a cookie row does not match its identity")
    }
    return Cookie(
      name: name, value: value, domain: domain, isHostOnly: columns.isHostOnly, path: path,
      expiresAt: columns.expires.map { Date(timeIntervalSince1970: $0) },
      createdAt: Date(timeIntervalSince1970: columns.created),
      lastAccessedAt: Date(timeIntervalSince1970: columns.lastAccess),
      lastUpdatedAt: Date(timeIntervalSince1970: columns.lastUpdate), isSecure: columns.isSecure,
      isHTTPOnly: columns.isHTTPOnly, sameSite: sameSite, partitionKey: partitionKey,
      sourceScheme: sourceScheme, sourcePort: columns.sourcePort.map { Int($0) }, source: source)
  }

  // MARK: - Buffers

  /// The scratch buffer, grown to at least `count` bytes.
  func reserveScratch(_ count: Int) -> UnsafeMutableRawBufferPointer {
    if scratch.count < count {
      OPENSSL_cleanse(scratch.baseAddress, scratch.count)
      scratch.deallocate()
      scratch = .allocate(byteCount: max(count, 2 * scratch.count), alignment: 8)
      scratch.initializeMemory(as: UInt8.self, repeating: 0)
    }
    return scratch
  }

  /// Writes the associated data of a row sealed as `seal` into
  /// ``associatedData``; returns its length.
  private func setAssociatedData(identity: RowHash, columns: CookieRowColumns, seal: RowSeal) -> Int
  {
    let label = seal == .allColumns ? Self.sealLabel : Self.identityOnlySealLabel
    associatedData.copyBytes(from: label)
    identity.withUnsafeBytes {
      UnsafeMutableRawBufferPointer(rebasing: associatedData[label.count...]).copyMemory(from: $0)
    }
    let count = label.count + RowHash.count
    guard seal == .allColumns else { return count }
    return count
      + columns.encode(into: UnsafeMutableRawBufferPointer(rebasing: associatedData[count...]))
  }

  /// Writes fields into a buffer at least as large as the sum of their
  /// `bound`s: each a LEB128 byte count, then the UTF-8 bytes.
  struct Encoder {
    let base: UnsafeMutablePointer<UInt8>
    var count = 0

    init(_ buffer: UnsafeMutableRawBufferPointer) {
      base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
    }

    /// The most bytes `append(_:)` writes for `string`.
    static func bound(_ string: String) -> Int { string.utf8.count + 5 }

    /// The most bytes `append(_:)` writes for `key`.
    static func bound(_ key: CookiePartitionKey?) -> Int {
      1 + (key.map { bound($0.topLevelSite) } ?? 0)
    }

    mutating func append(_ byte: UInt8) {
      base[count] = byte
      count += 1
    }

    mutating func append(_ bytes: [UInt8]) {
      bytes.withUnsafeBufferPointer { bytes in
        (base + count).update(from: bytes.baseAddress!, count: bytes.count)
      }
      count += bytes.count
    }

    mutating func append(_ string: String) {
      var length = string.utf8.count
      while length >= 0x80 {
        append(UInt8(truncatingIfNeeded: length) | 0x80)
        length >>= 7
      }
      append(UInt8(length))
      let copied = string.utf8.withContiguousStorageIfAvailable { utf8 in
        if let source = utf8.baseAddress { (base + count).update(from: source, count: utf8.count) }
        return utf8.count
      }
      if let copied {
        count += copied
      } else {
        for byte in string.utf8 { append(byte) }
      }
    }

    mutating func append(_ key: CookiePartitionKey?) {
      guard let key else {
        append(0)
        return
      }
      append(key.hasCrossSiteAncestor ? 2 : 1)
      append(key.topLevelSite)
    }
  }

  /// Reads the length-prefixed fields back.
  struct FieldReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    mutating func string() throws -> String {
      var count = 0
      var shift = 0
      while true {
        guard offset < bytes.count, shift <= 28 else { throw Self.damaged }
        let byte = bytes[offset]
        offset += 1
        count |= Int(byte & 0x7f) << shift
        if byte < 0x80 { break }
        shift += 7
      }
      guard count <= bytes.count - offset else { throw Self.damaged }
      defer { offset += count }
      let field = UnsafeBufferPointer(
        rebasing: bytes.assumingMemoryBound(to: UInt8.self)[offset..<offset + count])
      return try Self.string(field)
    }

    /// `bytes` as a `String`; throws unless they are valid UTF-8. Cookie
    /// fields are nearly always ASCII, which needs no decoding: checked a
    /// word at a time, then copied.
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>) throws -> String {
      if isASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
      guard let string = String(validating: bytes, as: UTF8.self) else { throw damaged }
      return string
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      guard let base = bytes.baseAddress else { return true }
      let raw = UnsafeRawPointer(base)
      var index = 0
      var high: UInt64 = 0
      while index + 8 <= bytes.count {
        high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        index += 8
      }
      while index < bytes.count {
        high |= UInt64(base[index])
        index += 1
      }
      return high & 0x8080_8080_8080_8080 == 0
    }

    mutating func byte() throws -> UInt8 {
      guard offset < bytes.count else { throw Self.damaged }
      defer { offset += 1 }
      return bytes[offset]
    }

    mutating func partition() throws -> CookiePartitionKey? {
      guard offset < bytes.count else { throw Self.damaged }
      let tag = bytes[offset]
      offset += 1
      switch tag {
      case 0: return nil
      case 1, 2:
        return CookiePartitionKey(topLevelSite: try string(), hasCrossSiteAncestor: tag == 2)
      default: throw Self.damaged
      }
    }

    static let damaged = WebsiteDataStoreError(
      .corrupt, "a cookie row's sealed fields are malformed")
  }
}

/// A 128-bit keyed hash as the store keeps it in a lookup column: the first
/// 16 bytes of an HMAC-SHA-256 (see ``KeyedHash/mac(_:truncatedInto:)``).
/// A value, so computing one allocates nothing.
struct RowHash: Hashable, Sendable {
  /// The size in bytes.
  static let count = 16

  private var low: UInt64 = 0
  private var high: UInt64 = 0

  /// Lets `fill` write the 16 bytes.
  init(_ fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
    try Swift.withUnsafeMutableBytes(of: &self) { try fill($0) }
  }

  /// The hash in `bytes`, or `nil` unless they are exactly 16.
  init?(bytes: UnsafeRawBufferPointer) {
    guard bytes.count == Self.count else { return nil }
    Swift.withUnsafeMutableBytes(of: &self) { $0.copyMemory(from: bytes) }
  }

  /// Calls `body` with the 16 bytes.
  func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try Swift.withUnsafeBytes(of: self) { try body($0) }
  }
}

extension SealedRowCodec {
  /// The records of `rows` that `open` opens, as a load at `cursor`; the
  /// others (altered, swapped, invalid columns) are counted as damaged.
  func load<Row, Record>(
    _ rows: [Row], cursor: ChangeCursor, opening open: (Row) throws -> Record
  ) -> RecordLoad<Record> {
    var records: [Record] = []
    var damaged = 0
    for row in rows {
      if let record = try? open(row) {
        records.append(record)
      } else {
        damaged += 1
      }
    }
    return RecordLoad(records: records, damagedCount: damaged, cursor: cursor)
  }
}
