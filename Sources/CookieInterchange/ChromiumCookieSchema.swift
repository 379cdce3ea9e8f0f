import WebsiteDataStore

/// The shape of a Chromium `Cookies` database: its version (the `meta`
/// table's `version`) and which columns its `cookies` table has
/// (`net/extras/sqlite/sqlite_persistent_cookie_store.cc`).
///
/// Versions 18 to 24 are the ones Chromium still migrates from; each only
/// added columns or changed their meaning in ways the reader follows:
/// 18 `last_update_utc`; 20 the unique index; 21 dropped `is_same_party`;
/// 22 `source_type`; 23 `has_cross_site_ancestor`; 24 the SHA-256 of
/// `host_key` before every encrypted value. Older files read as long as the
/// columns below exist. A file whose `last_compatible_version` is newer than
/// ``newestKnownVersion`` says that this reader cannot understand it.
struct ChromiumCookieSchema {
  /// The newest database version this reader understands.
  static let newestKnownVersion = 24
  /// From this version on, encrypted values start with SHA-256(`host_key`).
  static let domainHashVersion = 24

  /// Columns every readable database has.
  static let requiredColumns = [
    "creation_utc", "host_key", "name", "value", "path", "expires_utc", "is_secure",
    "is_httponly", "last_access_utc",
  ]
  /// Columns read when present (added by later versions).
  static let optionalColumns = [
    "encrypted_value", "top_frame_site_key", "samesite", "source_scheme", "source_port",
    "last_update_utc", "has_cross_site_ancestor",
  ]

  /// `meta.version`.
  let version: Int
  /// The columns of `cookies` that the reader uses.
  let columns: [String]

  /// Reads and checks the schema of an open snapshot.
  ///
  /// - Throws: ``WebsiteDataStoreError/Code/corrupt`` when the file has no
  ///   `meta` version or no `cookies` table, or lacks a required column (not
  ///   a Chromium cookie database, or an unknown schema);
  ///   ``WebsiteDataStoreError/Code/newerSchema`` when
  ///   `last_compatible_version` is newer than ``newestKnownVersion``.
  init(of database: BrowserDatabaseSnapshot, path: String) throws {
    guard try !database.columns(of: "meta").isEmpty,
      let version = try database.firstRow(
        "SELECT value FROM meta WHERE key = 'version'", { Int($0.text(at: 0) ?? "") }) ?? nil
    else {
      throw WebsiteDataStoreError(
        .corrupt, "\(path) is not a Chromium cookie database: it has no meta version")
    }
    let compatible =
      try database.firstRow(
        "SELECT value FROM meta WHERE key = 'last_compatible_version'",
        { Int($0.text(at: 0) ?? "") }) ?? nil
    if let compatible, compatible > Self.newestKnownVersion {
      throw WebsiteDataStoreError(
        .newerSchema,
        "\(path) is a Chromium cookie database of version \(version), readable only by Chromium"
          + " \(compatible) and later; this reader knows versions up to"
          + " \(Self.newestKnownVersion)")
    }
    let present = try database.columns(of: "cookies")
    guard !present.isEmpty else {
      throw WebsiteDataStoreError(
        .corrupt, "\(path) is not a Chromium cookie database: it has no cookies table")
    }
    if let missing = Self.requiredColumns.first(where: { !present.contains($0) }) {
      throw WebsiteDataStoreError(
        .corrupt,
        "\(path) has an unknown Chromium cookie schema (version \(version)): the cookies table"
          + " has no \(missing) column")
    }
    self.version = version
    columns = Self.requiredColumns + Self.optionalColumns.filter(present.contains)
  }

  /// Whether encrypted values carry the SHA-256 of their `host_key`.
  var hashesDomain: Bool { version >= Self.domainHashVersion }

  /// Every row, in file order, with its rowid as `row_id`.
  var selectAll: String {
    "SELECT rowid AS row_id, " + columns.joined(separator: ", ") + " FROM cookies ORDER BY rowid"
  }
}
