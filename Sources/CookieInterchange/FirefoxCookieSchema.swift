import WebsiteDataStore

/// The shape of a Firefox `cookies.sqlite`: its schema version
/// (`PRAGMA user_version`) and the columns of `moz_cookies`
/// (`netwerk/cookie/CookiePersistentStorage.cpp`, `TryInitDB`).
///
/// Versions 9 to 17 are read. What changed, as far as reading goes:
/// 9 `sameSite`; 10 `rawSameSite` (to tell an absent attribute from
/// `SameSite=None`); 12 `schemeMap`; 13 `isPartitionedAttributeSet`;
/// 15 `sameSite` 256 means unset, and `rawSameSite` is gone; 16 `expiry` in
/// milliseconds instead of seconds; 17 `updateTime`. Version 0 (unknown) and
/// versions after ``newestKnownVersion`` are refused: the meaning of their
/// columns (the unit of `expiry`, for one) cannot be known.
struct FirefoxCookieSchema {
  /// The newest schema version this reader understands.
  static let newestKnownVersion = 17
  /// The oldest schema version this reader understands (with `sameSite`).
  static let oldestKnownVersion = 9

  /// Columns every readable database has.
  static let requiredColumns = [
    "originAttributes", "name", "value", "host", "path", "expiry", "lastAccessed",
    "creationTime", "isSecure", "isHttpOnly", "sameSite",
  ]
  /// Columns read when present.
  static let optionalColumns = [
    "rawSameSite", "schemeMap", "isPartitionedAttributeSet", "updateTime",
  ]

  /// `PRAGMA user_version`.
  let version: Int
  /// The columns of `moz_cookies` that the reader uses.
  let columns: [String]

  /// Reads and checks the schema of an open snapshot.
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/corrupt`` when there is no
  ///   `moz_cookies` table, the version is unknown (0 or older than
  ///   ``oldestKnownVersion``) or a required column is missing;
  ///   ``WebsiteDataStoreError/Code/newerSchema`` for a version after
  ///   ``newestKnownVersion``.
  init(of database: BrowserDatabaseSnapshot, path: String) throws {
    let present = try database.columns(of: "moz_cookies")
    guard !present.isEmpty else {
      throw WebsiteDataStoreError(
        .corrupt, "\(path) is not a Firefox cookie database: it has no moz_cookies table")
    }
    let version = try database.firstRow("PRAGMA user_version", { $0.int(at: 0) }) ?? 0
    if version > Self.newestKnownVersion {
      throw WebsiteDataStoreError(
        .newerSchema,
        "\(path) is a Firefox cookie database of schema version \(version); this reader knows"
          + " versions \(Self.oldestKnownVersion) to \(Self.newestKnownVersion)")
    }
    guard version >= Self.oldestKnownVersion else {
      throw WebsiteDataStoreError(
        .corrupt,
        "\(path) has an unknown Firefox cookie schema (version \(version)); this reader knows"
          + " versions \(Self.oldestKnownVersion) to \(Self.newestKnownVersion)")
    }
    if let missing = Self.requiredColumns.first(where: { !present.contains($0) }) {
      throw WebsiteDataStoreError(
        .corrupt,
        "\(path) has an unknown Firefox cookie schema (version \(version)): moz_cookies has no"
          + " \(missing) column")
    }
    self.version = version
    columns = Self.requiredColumns + Self.optionalColumns.filter(present.contains)
  }

  /// Whether `expiry` is in milliseconds (schema 16 and later) rather than
  /// seconds.
  var expiryInMilliseconds: Bool { version >= 16 }

  /// Whether `sameSite` 256 means "unset" (schema 15 and later).
  var hasUnsetSameSite: Bool { version >= 15 }

  /// Every row, in file order, with its rowid as `row_id`.
  var selectAll: String {
    "SELECT rowid AS row_id, " + columns.joined(separator: ", ")
      + " FROM moz_cookies ORDER BY rowid"
  }
}
