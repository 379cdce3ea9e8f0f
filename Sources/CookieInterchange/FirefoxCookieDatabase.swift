import CookieCore
import Foundation
import WebsiteDataStore

/// Reads the cookies of a Firefox profile's `cookies.sqlite`, as
/// `netwerk/cookie/CookiePersistentStorage.cpp` writes it (schema versions 9
/// to 17, see ``FirefoxCookieSchema``).
///
/// Each row of `moz_cookies` becomes a ``CookieCore/Cookie``:
/// - `host` with a leading dot is a domain cookie for the rest of it;
///   without, a host-only cookie;
/// - `expiry` is seconds (milliseconds from schema 16) since 1970; Firefox
///   writes only persistent cookies, so every cookie read has an expiry;
///   `creationTime`, `lastAccessed` and `updateTime` are microseconds;
/// - `sameSite` 0 none, 1 lax, 2 strict, 256 unset (schema 15 and later);
///   before that, lax with `rawSameSite` none is the unset default;
/// - `schemeMap` gives the source scheme (https bit: secure; http only:
///   non-secure); Firefox does not keep the source port;
/// - the origin attributes (``FirefoxOriginAttributes``) give the container
///   (`userContextId`) and the partition: a `partitionKey` `(https,site)`
///   makes a partitioned cookie of that top-level site, whether CHIPS set it
///   (`isPartitionedAttributeSet`) or Total Cookie Protection partitioned a
///   third-party cookie; its ancestor-chain bit is Firefox's `f` flag, or
///   true when the cookie's own site is not the top-level site. A CHIPS
///   cookie without a `partitionKey` (set first-party, before Firefox's
///   start-up migration) is partitioned under its own site, as that
///   migration does.
///
/// One container is read at a time, so containers are never mixed; rows of
/// other containers are passed over without an issue (see
/// ``containers(contentsOf:)`` for what a file holds). Rows of private
/// browsing, of first-party isolation (`firstPartyDomain`) or of a GeckoView
/// session context become issues: the store has no such jars. Any other row
/// that cannot be read becomes an issue (`row <rowid>`) and the rest is read.
/// Cookies are marked ``CookieCore/CookieSource/api`` (imported).
///
/// The file is read into memory with its `-wal` applied there
/// (``BrowserDatabaseSnapshot``), so a running Firefox is not disturbed, its
/// latest writes are seen and no copy is left on disk. Reading blocks: call it from a thread that may
/// block, not from Swift's cooperative pool.
public enum FirefoxCookieDatabase {
  /// Reads the cookies of one container of the database at `path`.
  ///
  /// - Parameters:
  ///   - path: A Firefox profile's `cookies.sqlite`.
  ///   - userContextID: The container to read (Firefox's `userContextId`,
  ///     as in the profile's `containers.json`); `nil` reads the default
  ///     jar, outside any container (0).
  /// - Returns: the cookies in file (rowid) order and an issue per row that
  ///   could not be read.
  /// - Throws: ``WebsiteDataStoreError`` with code
  ///   ``WebsiteDataStoreError/Code/notFound``,
  ///   ``WebsiteDataStoreError/Code/corrupt`` (not an SQLite database,
  ///   damaged, not a Firefox cookie database, or an unknown schema),
  ///   ``WebsiteDataStoreError/Code/newerSchema``,
  ///   ``WebsiteDataStoreError/Code/invalidArgument`` (a negative container)
  ///   or ``WebsiteDataStoreError/Code/io``. Messages never contain a value.
  ///
  /// The reading runs outside Swift's cooperative pool (``OffPool``).
  public static func read(contentsOf path: String, userContextID: Int?) async throws
    -> CookieImportResult
  {
    try await OffPool.run { try readNow(contentsOf: path, userContextID: userContextID) }
  }

  /// ``read(contentsOf:userContextID:)`` on the calling thread.
  private static func readNow(contentsOf path: String, userContextID: Int?) throws
    -> CookieImportResult
  {
    let container = userContextID ?? 0
    guard container >= 0 else {
      throw WebsiteDataStoreError(.invalidArgument, "a Firefox container number is 0 or more")
    }
    var result = CookieImportResult()
    try forEachRow(ofDatabaseAt: path) { rowID, row, schema in
      do {
        let attributes = try FirefoxOriginAttributes(
          suffix: row.text("originAttributes"))
        if let problem = unsupportedJar(attributes) {
          result.issues.append(problem.issue(rowID: rowID))
          return
        }
        guard attributes.userContextID == container else { return }
        result.append(
          try cookie(from: row, attributes: attributes, schema: schema), at: "row \(rowID)")
      } catch let problem as CookieRowProblem {
        result.issues.append(problem.issue(rowID: rowID))
      }
    }
    return result
  }

  /// The containers of the database at `path` that hold cookies, in
  /// ascending order of `userContextId` (0 is the default jar), with how
  /// many rows each has. Rows whose origin attributes cannot be read, and
  /// private-browsing, first-party-isolated and GeckoView rows, are not
  /// counted.
  ///
  /// - Throws: as ``read(contentsOf:userContextID:)``.
  ///
  /// The reading runs outside Swift's cooperative pool (``OffPool``).
  public static func containers(contentsOf path: String) async throws
    -> [FirefoxCookieContainer]
  {
    try await OffPool.run { try containersNow(contentsOf: path) }
  }

  /// ``containers(contentsOf:)`` on the calling thread.
  private static func containersNow(contentsOf path: String) throws -> [FirefoxCookieContainer] {
    var counts: [Int: Int] = [:]
    try forEachRow(ofDatabaseAt: path) { _, row, _ in
      guard let suffix = try? row.text("originAttributes"),
        let attributes = try? FirefoxOriginAttributes(suffix: suffix),
        unsupportedJar(attributes) == nil
      else { return }
      counts[attributes.userContextID, default: 0] += 1
    }
    return counts.keys.sorted().map {
      FirefoxCookieContainer(userContextID: $0, cookieCount: counts[$0] ?? 0)
    }
  }

  /// Opens a snapshot of the database, checks its schema and calls `body` for
  /// each row in rowid order.
  private static func forEachRow(
    ofDatabaseAt path: String,
    _ body: (Int64, BrowserCookieRow, FirefoxCookieSchema) throws -> Void
  ) throws {
    let database = try BrowserDatabaseSnapshot(of: path, kind: "a Firefox cookie database")
    defer { database.close() }
    let schema = try FirefoxCookieSchema(of: database, path: path)
    do {
      let statement = try database.connection.makeStatement(schema.selectAll)
      let row = BrowserCookieRow(statement: statement)
      try statement.forEachRow { _ in try body(statement.int64(at: 0), row, schema) }
    } catch let error as WebsiteDataStoreError where error.code == .corrupt {
      throw WebsiteDataStoreError(
        .corrupt, "\(path) is damaged: \(error.message)", underlying: error)
    }
  }

  /// Why a row's jar cannot be imported, if it cannot.
  static func unsupportedJar(_ attributes: FirefoxOriginAttributes) -> CookieRowProblem? {
    if attributes.privateBrowsingID != 0 {
      return CookieRowProblem("a private-browsing cookie (privateBrowsingId); not imported")
    }
    if !attributes.firstPartyDomain.isEmpty {
      return CookieRowProblem(
        "a first-party-isolated cookie (firstPartyDomain); the store has no such jars")
    }
    if !attributes.geckoViewUserContextID.isEmpty {
      return CookieRowProblem(
        "a GeckoView session cookie (geckoViewUserContextId); the store has no such jars")
    }
    return nil
  }

  /// The cookie of one row.
  static func cookie(
    from row: BrowserCookieRow, attributes: FirefoxOriginAttributes, schema: FirefoxCookieSchema
  ) throws(CookieRowProblem) -> Cookie {
    let host = try row.text("host")
    let isHostOnly = !host.hasPrefix(".")
    var domain = (isHostOnly ? host : String(host.dropFirst())).lowercased()
    guard !domain.isEmpty, !domain.hasPrefix(".") else {
      throw CookieRowProblem("host is not a domain")
    }
    if domain.contains(":") && !domain.hasPrefix("[") { domain = "[\(domain)]" }  // IPv6
    let expiry = try row.integer("expiry")
    let created = BrowserTime.unixMicroseconds(try row.integer("creationTime"))
    let lastAccess = try row.integer("lastAccessed")
    let update = try row.integer("updateTime", fallback: 0)
    var partitionKey: CookiePartitionKey?
    if let key = attributes.partitionKey {
      partitionKey = try BrowserPartitionSite(scheme: key.scheme, host: key.host)
        .partitionKey(
          cookieDomain: domain, crossSiteAncestor: key.isForeignByAncestor ? true : nil)
    } else if try row.bool("isPartitionedAttributeSet", fallback: false) {
      // A CHIPS cookie set in a first-party context by a Firefox that had not
      // yet run `MoveUnpartitionedChipsCookies`, which moves it, at the next
      // start, into the partition of its own site (https, base domain).
      let site = CookieDomain.siteKey(of: domain, facts: PublicSuffixDomainFacts.shared)
      partitionKey = try BrowserPartitionSite(scheme: "https", host: site)
        .partitionKey(cookieDomain: domain, crossSiteAncestor: false)
    }
    let schemeMap = try row.integer("schemeMap", fallback: 0)
    return Cookie(
      name: try row.text("name"), value: try row.text("value"), domain: domain,
      isHostOnly: isHostOnly, path: try row.text("path"),
      expiresAt: schema.expiryInMilliseconds
        ? BrowserTime.unixMilliseconds(expiry) : BrowserTime.unixSeconds(expiry),
      createdAt: created,
      lastAccessedAt: lastAccess == 0 ? created : BrowserTime.unixMicroseconds(lastAccess),
      lastUpdatedAt: update == 0 ? created : BrowserTime.unixMicroseconds(update),
      isSecure: try row.bool("isSecure"), isHTTPOnly: try row.bool("isHttpOnly"),
      sameSite: try sameSite(of: row, schema: schema), partitionKey: partitionKey,
      sourceScheme: schemeMap & 0x02 != 0 ? .secure : schemeMap & 0x01 != 0 ? .nonSecure : .unset,
      sourcePort: nil, source: .api)
  }

  /// `nsICookie` SameSite values: 0 none, 1 lax, 2 strict, 256 unset (schema
  /// 15+). Before schema 15 an absent attribute was stored as `sameSite` lax
  /// with `rawSameSite` none (Firefox's own migration to 15 turns exactly
  /// those rows into unset).
  static func sameSite(of row: BrowserCookieRow, schema: FirefoxCookieSchema)
    throws(CookieRowProblem) -> SameSite
  {
    let stored = try row.integer("sameSite")
    if !schema.hasUnsetSameSite, row.has("rawSameSite"), stored == 1,
      try row.integer("rawSameSite") == 0
    {
      return .unspecified
    }
    switch stored {
    case 0: return .none
    case 1: return .lax
    case 2: return .strict
    case 256 where schema.hasUnsetSameSite: return .unspecified
    default: throw CookieRowProblem("sameSite has an unknown value")
    }
  }
}
