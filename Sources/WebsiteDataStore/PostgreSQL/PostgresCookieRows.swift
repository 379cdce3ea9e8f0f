import CookieCore

/// The `cookies` and `cookie_removals` tables of a PostgreSQL store
/// (Migrations/PostgreSQL/0001_store.sql): one write as a few statements
/// over arrays (`unnest`), so a batch of any size costs a few round trips;
/// and reading rows back into a ``CookieRowSnapshot`` for the codec.
///
/// A write holds the final operation per identity (the last change of each
/// cookie wins, as applying them in order would leave it), since one
/// statement may not touch a row twice.
struct PostgresCookieRows: Sendable {
  /// The sealed rows to insert or replace.
  private var upserts = CookieRowBatch()
  /// The sealed rows whose access time reads refreshed (advisory: applied
  /// only where the stored row still has the rest of the row's columns).
  private var touches = CookieRowBatch()
  /// Removed identities: the removal record, and for an expiry the expiry
  /// seen, so that a newer cookie of the identity is never deleted by a
  /// reader that found the old one expired.
  private var removals: [(row: CookieRemovalRow, expiredAt: Double?)] = []
  /// Whether the write removes data on request (every removal record goes).
  private(set) var erases = false

  /// Seals a write's changes (session cookies only when `keepsSessionCookies`).
  init(_ write: CookieWrite, codec: SealedRowCodec, keepsSessionCookies: Bool) throws {
    func isWritten(_ cookie: Cookie) -> Bool { keepsSessionCookies || !cookie.isSession }
    enum Final {
      case upsert(Int)
      case removal(CookieRemovalRow, Double?)
    }
    var sealed = CookieRowBatch(capacity: write.changes.count)
    // In the order each identity first appears: rows of one creation time
    // keep the order they were made in (their row ids).
    var finals: [Final] = []
    var positions: [RowHash: Int] = [:]
    func record(_ final: Final, for hash: RowHash) {
      if let position = positions[hash] {
        finals[position] = final
      } else {
        positions[hash] = finals.count
        finals.append(final)
      }
    }
    for change in write.changes {
      if change.isRemoval {
        let row = try codec.removalRow(for: change.cookie.identity, cause: change.cause)
        guard let hash = row.identityHash else { continue }
        let expiry =
          change.cause == .expired ? change.cookie.expiresAt?.timeIntervalSince1970 : nil
        record(.removal(row, expiry), for: hash)
      } else if isWritten(change.cookie) {
        let index = try codec.appendRow(for: change.cookie, to: &sealed)
        record(.upsert(index), for: sealed.rows[index].identity)
      }
    }
    upserts = CookieRowBatch(capacity: finals.count)
    for final in finals {
      switch final {
      case .upsert(let index):
        let row = sealed.rows[index]
        let start = upserts.sealed.count
        upserts.sealed += sealed.sealed[row.sealedStart..<row.sealedStart + row.sealedCount]
        upserts.rows.append(
          CookieRowBatch.Row(
            identity: row.identity, sealedStart: start, sealedCount: row.sealedCount,
            columns: row.columns))
      case .removal(let row, let expiry):
        removals.append((row, expiry))
      }
    }
    for cookie in write.accessed where isWritten(cookie) {
      _ = try codec.appendRow(for: cookie, to: &touches)
    }
    erases = write.erasing
  }

  /// Whether the write changes records (anything but access times), so
  /// that its transaction takes a change number.
  var changesRecords: Bool { erases || !upserts.rows.isEmpty || !removals.isEmpty }

  var isEmpty: Bool { !changesRecords && touches.rows.isEmpty }

  // MARK: - Writing

  private static let columns =
    "identity_hash, sealed, host_only, secure, http_only, same_site, expires, created,"
    + " last_access, last_update, source_scheme, source_port, source"
  /// The arrays of ``columns`` as `$1`…`$13`, cast to the columns' types.
  private static let unnest =
    "unnest($1::bytea[], $2::bytea[], $3::int8[], $4::int8[], $5::int8[], $6::int8[],"
    + " $7::float8[], $8::float8[], $9::float8[], $10::float8[], $11::int8[], $12::int8[],"
    + " $13::int8[])"
  private static let upsertSQL =
    "INSERT INTO cookies (\(columns), change_seq)"
    + " SELECT h, s, ho, se, hto, ss, ex, cr, la, lu, sc, sp, so, $14 FROM \(unnest)"
    + " WITH ORDINALITY AS r(h, s, ho, se, hto, ss, ex, cr, la, lu, sc, sp, so, n) ORDER BY n"
    + " ON CONFLICT (identity_hash) DO UPDATE SET sealed = excluded.sealed,"
    + " host_only = excluded.host_only, secure = excluded.secure,"
    + " http_only = excluded.http_only, same_site = excluded.same_site,"
    + " expires = excluded.expires, created = excluded.created,"
    + " last_access = excluded.last_access, last_update = excluded.last_update,"
    + " source_scheme = excluded.source_scheme, source_port = excluded.source_port,"
    + " source = excluded.source, change_seq = excluded.change_seq"
  private static let touchSQL =
    "UPDATE cookies AS c SET sealed = t.s, last_access = t.la FROM \(unnest)"
    + " AS t(h, s, ho, se, hto, ss, ex, cr, la, lu, sc, sp, so)"
    + " WHERE c.identity_hash = t.h AND c.host_only = t.ho AND c.secure = t.se"
    + " AND c.http_only = t.hto AND c.same_site = t.ss AND c.expires IS NOT DISTINCT FROM t.ex"
    + " AND c.created = t.cr AND c.last_update = t.lu AND c.source_scheme = t.sc"
    + " AND c.source_port IS NOT DISTINCT FROM t.sp AND c.source = t.so"
  /// Deletes identities; one with an expiry only while it expires no later.
  private static let deleteSQL =
    "DELETE FROM cookies AS c USING unnest($1::bytea[], $2::float8[]) AS r(h, e)"
    + " WHERE c.identity_hash = r.h AND (r.e IS NULL OR c.expires <= r.e)"
  private static let recordRemovalsSQL =
    "INSERT INTO cookie_removals (identity_hash, change_seq, cause, sealed)"
    + " SELECT r.h, $4, r.c, r.s FROM unnest($1::bytea[], $2::int8[], $3::bytea[]) AS r(h, c, s)"
    + " ON CONFLICT (identity_hash) DO UPDATE SET change_seq = excluded.change_seq,"
    + " cause = excluded.cause, sealed = excluded.sealed"

  /// How many removal records are kept when they are pruned (as SQLite's
  /// ``CookieRemovalRows/kept``); pruned once there are twice as many.
  static let keptRemovals = CookieRemovalRows.kept

  /// Runs the statements inside the caller's transaction, whose change
  /// number is `sequence` (0 for a write of access times alone).
  func apply(to connection: PostgresConnection, sequence: Int64) throws {
    if !removals.isEmpty {
      try connection.execute(
        Self.deleteSQL,
        [
          .array(removals.map { .bytes($0.row.identityHash?.bytes ?? []) }, element: .bytes),
          .array(
            removals.map { $0.expiredAt.map(PostgresValue.double) ?? .null }, element: .double),
        ])
      try connection.execute(
        Self.recordRemovalsSQL,
        [
          .array(removals.map { .bytes($0.row.identityHash?.bytes ?? []) }, element: .bytes),
          .array(removals.map { .int64($0.row.cause) }, element: .int64),
          .array(removals.map { .bytes($0.row.sealed) }, element: .bytes),
          .int64(sequence),
        ])
    }
    if !upserts.rows.isEmpty {
      try connection.execute(Self.upsertSQL, Self.arrays(upserts) + [.int64(sequence)])
    }
    if !touches.rows.isEmpty {
      try connection.execute(Self.touchSQL, Self.arrays(touches))
    }
    if erases {
      try connection.execute("DELETE FROM cookie_removals")
      try PostgresChangeSequence.raiseRemovalFloor(.cookies, to: sequence, on: connection)
    } else if !removals.isEmpty {
      try Self.pruneRemovals(connection)
    }
  }

  /// The 13 column arrays of `batch`'s rows.
  private static func arrays(_ batch: CookieRowBatch) -> [PostgresValue] {
    let rows = batch.rows
    func column(_ element: PostgresValue.Element, _ value: (CookieRowBatch.Row) -> PostgresValue)
      -> PostgresValue
    {
      .array(rows.map(value), element: element)
    }
    func flag(_ value: Bool) -> PostgresValue { .int64(value ? 1 : 0) }
    return [
      column(.bytes) { .bytes($0.identity.bytes) },
      column(.bytes) {
        .bytes(Array(batch.sealed[$0.sealedStart..<$0.sealedStart + $0.sealedCount]))
      },
      column(.int64) { flag($0.columns.isHostOnly) },
      column(.int64) { flag($0.columns.isSecure) },
      column(.int64) { flag($0.columns.isHTTPOnly) },
      column(.int64) { .int64($0.columns.sameSite) },
      column(.double) { $0.columns.expires.map(PostgresValue.double) ?? .null },
      column(.double) { .double($0.columns.created) },
      column(.double) { .double($0.columns.lastAccess) },
      column(.double) { .double($0.columns.lastUpdate) },
      column(.int64) { .int64($0.columns.sourceScheme) },
      column(.int64) { $0.columns.sourcePort.map(PostgresValue.int64) ?? .null },
      column(.int64) { .int64($0.columns.source) },
    ]
  }

  /// Drops the oldest removal records once there are more than twice
  /// ``keptRemovals``, keeping the newest, and raises the removal floor
  /// past the dropped ones: a store further behind reloads.
  private static func pruneRemovals(_ connection: PostgresConnection) throws {
    let count = try connection.execute("SELECT count(*) FROM cookie_removals").scalar?.int64 ?? 0
    guard count > 2 * Int64(keptRemovals) else { return }
    let cut = try connection.execute(
      "SELECT change_seq FROM cookie_removals ORDER BY change_seq DESC LIMIT 1 OFFSET $1",
      [.int64(Int64(keptRemovals))])
    guard let floor = cut.scalar?.int64 else { return }
    try connection.execute(
      "DELETE FROM cookie_removals WHERE change_seq <= $1", [.int64(floor)])
    try PostgresChangeSequence.raiseRemovalFloor(.cookies, to: floor, on: connection)
  }

  // MARK: - Reading

  private static let selectSQL = "SELECT id, \(columns), change_seq FROM cookies"

  /// Every row, by creation time, then row id.
  static func readAll(_ connection: PostgresConnection) throws -> CookieRowSnapshot {
    snapshot(try connection.execute(selectSQL + " ORDER BY created, id"))
  }

  /// The rows changed after `cursor` not by `own`.
  static func readChanged(
    _ connection: PostgresConnection, after cursor: ChangeCursor, excluding own: OwnCommits
  ) throws -> CookieRowSnapshot {
    let rows = try connection.execute(
      selectSQL + " WHERE change_seq > $1 ORDER BY id", [.int64(cursor.sequence)])
    return snapshot(rows) { !own.contains($0[14].int64 ?? 0) }
  }

  /// The removal records after `cursor` not made by `own` whose identity
  /// has no row now (one that has was set again after its removal).
  static func readRemovals(
    _ connection: PostgresConnection, after cursor: ChangeCursor, excluding own: OwnCommits
  ) throws -> [CookieRemovalRow] {
    let rows = try connection.execute(
      "SELECT identity_hash, change_seq, cause, sealed FROM cookie_removals AS r"
        + " WHERE change_seq > $1 AND NOT EXISTS"
        + " (SELECT 1 FROM cookies AS c WHERE c.identity_hash = r.identity_hash)",
      [.int64(cursor.sequence)])
    return rows.rows.compactMap { row in
      guard !own.contains(row[1].int64 ?? 0) else { return nil }
      return CookieRemovalRow(
        identityHash: row[0].bytes.flatMap { bytes in
          bytes.withUnsafeBytes { RowHash(bytes: $0) }
        },
        cause: row[2].int64 ?? -1, sealed: row[3].bytes ?? [])
    }
  }

  /// The rows of a ``selectSQL`` result that `keep` accepts, as stored.
  private static func snapshot(
    _ result: PostgresRows, keep: ([PostgresValue]) -> Bool = { _ in true }
  ) -> CookieRowSnapshot {
    var snapshot = CookieRowSnapshot()
    snapshot.rows.reserveCapacity(result.rows.count)
    for row in result.rows where keep(row) {
      let start = snapshot.sealed.count
      let sealed = row[2].bytes
      if let sealed { snapshot.sealed += sealed }
      snapshot.rows.append(
        CookieRowSnapshot.Row(
          id: row[0].int64 ?? 0,
          identity: row[1].bytes.flatMap { bytes in bytes.withUnsafeBytes { RowHash(bytes: $0) } },
          sealedStart: start, sealedCount: sealed?.count ?? -1,
          columns: CookieRowColumns(
            isHostOnly: row[3].int64 == 1, isSecure: row[4].int64 == 1,
            isHTTPOnly: row[5].int64 == 1, sameSite: row[6].int64 ?? -1, expires: row[7].double,
            created: row[8].double ?? .nan, lastAccess: row[9].double ?? .nan,
            lastUpdate: row[10].double ?? .nan, sourceScheme: row[11].int64 ?? -1,
            sourcePort: row[12].int64, source: row[13].int64 ?? -1)))
    }
    return snapshot
  }
}
