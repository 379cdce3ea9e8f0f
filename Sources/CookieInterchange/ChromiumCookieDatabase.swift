import CookieCore
import Foundation
import WebsiteDataStore

/// Reads the cookies of a Chromium (or Chrome, Edge, Brave…) profile's
/// `Cookies` database on Linux, as `net/extras/sqlite/
/// sqlite_persistent_cookie_store.cc` writes it (database versions up to 24,
/// see ``ChromiumCookieSchema``).
///
/// Each row of the `cookies` table becomes a ``CookieCore/Cookie``:
/// - `host_key` with a leading dot is a domain cookie for the rest of it;
///   without, a host-only cookie;
/// - times are microseconds since 1601-01-01 UTC; `expires_utc` 0 is a
///   session cookie;
/// - `samesite` −1 unspecified, 0 none, 1 lax, 2 strict (3, the old
///   "extended", and unknown values read as unspecified, as Chromium does);
/// - a non-empty `top_frame_site_key` is a partitioned (CHIPS) cookie of that
///   top-level site, with `has_cross_site_ancestor` as its ancestor-chain bit;
/// - `source_scheme` (0 unset, 1 non-secure, 2 secure) and `source_port`
///   (−1 unknown) are kept;
/// - the value comes from `value` or, decrypted, from `encrypted_value`
///   (``ChromiumCookieValueDecoder``).
///
/// The cookies are marked ``CookieCore/CookieSource/api`` (imported). A row
/// that cannot be read becomes a ``CookieImportIssue`` (`row <rowid>`) and the
/// rest is read; the store may still reject a cookie when it is imported
/// (``HTTPCookieStore/importCookies(_:)``).
///
/// The file is read into memory, a hot journal rolled back there
/// (``BrowserDatabaseSnapshot``), so a running Chromium is not disturbed and
/// no copy is left on disk. Reading blocks (file reads, SQLite,
/// decryption): call it from a thread that may block, not from Swift's
/// cooperative pool.
public enum ChromiumCookieDatabase {
  /// Reads every cookie of the database at `path`.
  ///
  /// - Parameters:
  ///   - path: A Chromium profile's `Cookies` file (for example
  ///     `~/.config/chromium/Default/Cookies`).
  ///   - password: The password Chromium keeps in the user's keyring
  ///     ("Chromium Safe Storage" in GNOME Keyring or KWallet), needed for
  ///     values encrypted as `v11`; `nil` makes each such row an issue that
  ///     says a password is needed. Values encrypted as `v10` (no keyring, or
  ///     `--password-store=basic`) need none.
  /// - Returns: the cookies in file (rowid) order and an issue per row that
  ///   could not be read.
  /// - Throws: ``WebsiteDataStoreError`` with code
  ///   ``WebsiteDataStoreError/Code/notFound`` (no such file),
  ///   ``WebsiteDataStoreError/Code/corrupt`` (not an SQLite database,
  ///   damaged, not a Chromium cookie database, or an unknown schema),
  ///   ``WebsiteDataStoreError/Code/newerSchema`` (a newer, incompatible
  ///   version), ``WebsiteDataStoreError/Code/io`` or
  ///   ``WebsiteDataStoreError/Code/crypto``. Messages never contain a value.
  ///
  /// The reading and decryption run outside Swift's cooperative pool
  /// (``OffPool``).
  public static func read(contentsOf path: String, password: String?) async throws
    -> CookieImportResult
  {
    try await read(contentsOf: path, password: PasswordSource { password })
  }

  /// Where the keyring password comes from when the database has a `v11`
  /// value: asked once, at the first such value (so a keyring is never
  /// consulted for a database that needs none), on the reading thread,
  /// which may block (a Secret Service lookup, a prompt).
  public struct PasswordSource: Sendable {
    /// The password, or `nil` when there is none (each `v11` row then is
    /// an issue).
    public var password: @Sendable () throws -> String?

    /// A source that answers with `password()`.
    public init(_ password: @escaping @Sendable () throws -> String?) {
      self.password = password
    }
  }

  /// Reads every cookie of the database at `path`, asking `password` for the
  /// keyring password at the first `v11` value; otherwise as the overload
  /// that takes the password itself.
  public static func read(contentsOf path: String, password: PasswordSource) async throws
    -> CookieImportResult
  {
    try await OffPool.run { try readNow(contentsOf: path, password: password) }
  }

  /// Reads the database on the calling thread.
  private static func readNow(contentsOf path: String, password: PasswordSource) throws
    -> CookieImportResult
  {
    let database = try BrowserDatabaseSnapshot(of: path, kind: "a Chromium cookie database")
    defer { database.close() }
    let schema = try ChromiumCookieSchema(of: database, path: path)
    let decoder = ChromiumCookieValueDecoder(
      password: password, hashesDomain: schema.hashesDomain)
    var result = CookieImportResult()
    do {
      let statement = try database.connection.makeStatement(schema.selectAll)
      let row = BrowserCookieRow(statement: statement)
      try statement.forEachRow { _ in
        let rowID = statement.int64(at: 0)
        do {
          result.append(try cookie(from: row, decoder: decoder), at: "row \(rowID)")
        } catch let problem as CookieRowProblem {
          result.issues.append(problem.issue(rowID: rowID))
        }
      }
    } catch let error as WebsiteDataStoreError where error.code == .corrupt {
      throw WebsiteDataStoreError(
        .corrupt, "\(path) is damaged: \(error.message)", underlying: error)
    }
    return result
  }

  /// The cookie of one row.
  static func cookie(from row: BrowserCookieRow, decoder: ChromiumCookieValueDecoder) throws
    -> Cookie
  {
    let hostKey = try row.text("host_key")
    let isHostOnly = !hostKey.hasPrefix(".")
    let domain = (isHostOnly ? hostKey : String(hostKey.dropFirst())).lowercased()
    guard !domain.isEmpty, !domain.hasPrefix(".") else {
      throw CookieRowProblem("host_key is not a domain")
    }
    let value = try decoder.value(
      plain: row.bytes("value"),
      encrypted: row.has("encrypted_value") ? row.bytes("encrypted_value") : [],
      hostKey: hostKey)
    let created = BrowserTime.chromium(try row.integer("creation_utc"))
    let expires = try row.integer("expires_utc")
    let lastAccess = try row.integer("last_access_utc")
    let lastUpdate = try row.integer("last_update_utc", fallback: 0)
    let topFrameSite = try row.text("top_frame_site_key", fallback: "")
    var partitionKey: CookiePartitionKey?
    if !topFrameSite.isEmpty {
      let crossSite: Bool? =
        row.has("has_cross_site_ancestor") ? try row.bool("has_cross_site_ancestor") : nil
      partitionKey = try BrowserPartitionSite(serialized: topFrameSite)
        .partitionKey(cookieDomain: domain, crossSiteAncestor: crossSite)
    }
    let sourcePort = try row.integer("source_port", fallback: -1)
    return Cookie(
      name: try row.text("name"), value: value, domain: domain, isHostOnly: isHostOnly,
      path: try row.text("path"), expiresAt: expires == 0 ? nil : BrowserTime.chromium(expires),
      createdAt: created,
      lastAccessedAt: lastAccess == 0 ? created : BrowserTime.chromium(lastAccess),
      lastUpdatedAt: lastUpdate == 0 ? created : BrowserTime.chromium(lastUpdate),
      isSecure: try row.bool("is_secure"), isHTTPOnly: try row.bool("is_httponly"),
      sameSite: sameSite(try row.integer("samesite", fallback: -1)), partitionKey: partitionKey,
      sourceScheme: CookieSourceScheme(rawValue: Int(try row.integer("source_scheme", fallback: 0)))
        ?? .unset,
      sourcePort: (1...65535).contains(sourcePort) ? Int(sourcePort) : nil, source: .api)
  }

  /// Chromium's `DBCookieSameSite`: −1 unspecified, 0 no restriction, 1 lax,
  /// 2 strict; 3 (the deprecated "extended") and anything else read as
  /// unspecified, as `DBCookieSameSiteToCookieSameSite` does.
  static func sameSite(_ stored: Int64) -> SameSite {
    switch stored {
    case 0: .none
    case 1: .lax
    case 2: .strict
    default: .unspecified
    }
  }
}
