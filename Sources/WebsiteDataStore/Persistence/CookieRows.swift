import CookieCore

/// The `cookies` table's columns, in the order every statement uses.
enum CookieColumns {
  /// The column list of inserts and reads (after `id` for reads).
  static let list =
    "identity_hash, sealed, host_only, secure, http_only, same_site, expires, created,"
    + " last_access, last_update, source_scheme, source_port, source"

  /// Inserts a row, or updates every column of the row with its identity;
  /// parameter 14 is the transaction's change number.
  static let upsertSQL =
    "INSERT INTO cookies (\(list), change_seq) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
    + " ON CONFLICT(identity_hash) DO UPDATE SET sealed = excluded.sealed,"
    + " host_only = excluded.host_only, secure = excluded.secure,"
    + " http_only = excluded.http_only, same_site = excluded.same_site,"
    + " expires = excluded.expires, created = excluded.created,"
    + " last_access = excluded.last_access, last_update = excluded.last_update,"
    + " source_scheme = excluded.source_scheme, source_port = excluded.source_port,"
    + " source = excluded.source, change_seq = excluded.change_seq"
  static let deleteSQL = "DELETE FROM cookies WHERE identity_hash = ?"
  static let touchSQL =
    "UPDATE cookies SET sealed = ?2, last_access = ?9 WHERE identity_hash = ?1"
    + " AND host_only = ?3 AND secure = ?4 AND http_only = ?5 AND same_site = ?6"
    + " AND expires IS ?7 AND created = ?8 AND last_update = ?10 AND source_scheme = ?11"
    + " AND source_port IS ?12 AND source = ?13"
  /// Records a removal for other stores (parameters: identity hash, change
  /// number, cause, sealed identity).
  static let recordRemovalSQL =
    "INSERT OR REPLACE INTO cookie_removals (identity_hash, change_seq, cause, sealed)"
    + " VALUES (?, ?, ?, ?)"
  /// Every row in row-id order (see ``CookieRowSnapshot/read(_:)``), with
  /// its change number last.
  static let selectSQL = "SELECT id, \(list), change_seq FROM cookies"
  /// The rows changed after a change number, in row-id order.
  static let selectChangedSQL = selectSQL + " WHERE change_seq > ? ORDER BY id"
  /// The removals recorded after a change number whose identity has no row
  /// now: one that has was set again after its removal (perhaps by the
  /// reader itself, whose own rows it does not read back).
  static let selectRemovalsSQL =
    "SELECT identity_hash, change_seq, cause, sealed FROM cookie_removals AS r"
    + " WHERE change_seq > ? AND NOT EXISTS"
    + " (SELECT 1 FROM cookies AS c WHERE c.identity_hash = r.identity_hash)"
}

extension CookieRowBatch {
  /// Runs the statements in order, inside the caller's transaction, whose
  /// change number is `sequence` (``SQLiteChangeSequence``). Each statement
  /// is prepared once per batch and reused (bind, step, reset).
  func apply(to connection: SQLiteConnection, sequence: Int64) throws {
    var upsert: SQLiteStatement?
    var delete: SQLiteStatement?
    var record: SQLiteStatement?
    var touch: SQLiteStatement?
    try sealed.withUnsafeBytes { sealed in
      for operation in operations {
        switch operation {
        case .upsert(let index):
          let statement = try upsert ?? connection.prepare(CookieColumns.upsertSQL)
          upsert = statement
          try bind(rows[index], sealed: sealed, to: statement)
          try statement.bind(sequence, at: 14)
          try statement.run()
        case .remove(let index):
          let removal = removals[index]
          let statement = try delete ?? connection.prepare(CookieColumns.deleteSQL)
          delete = statement
          try removal.identityHash?.withUnsafeBytes { try statement.bind(bytes: $0, at: 1) }
          try statement.run()
          let recording = try record ?? connection.prepare(CookieColumns.recordRemovalSQL)
          record = recording
          try recording.bind([
            .blob(removal.identityHash?.bytes ?? []), .integer(sequence),
            .integer(removal.cause), .blob(removal.sealed),
          ])
          try recording.run()
        case .touch(let index):
          let statement = try touch ?? connection.prepare(CookieColumns.touchSQL)
          touch = statement
          try bind(rows[index], sealed: sealed, to: statement)
          try statement.run()
        }
      }
    }
    if erases {
      try connection.execute("DELETE FROM cookie_removals")
      try SQLiteChangeSequence.raiseRemovalFloor(.cookies, to: sequence, on: connection)
    } else if !removals.isEmpty {
      try CookieRemovalRows.prune(connection)
    }
  }

  /// Binds the 13 columns of ``CookieColumns/list`` (parameters 1–13).
  private func bind(_ row: Row, sealed: UnsafeRawBufferPointer, to statement: SQLiteStatement)
    throws
  {
    let columns = row.columns
    try row.identity.withUnsafeBytes { try statement.bind(bytes: $0, at: 1) }
    try statement.bind(
      bytes: UnsafeRawBufferPointer(
        rebasing: sealed[row.sealedStart..<row.sealedStart + row.sealedCount]), at: 2)
    try statement.bind(columns.isHostOnly, at: 3)
    try statement.bind(columns.isSecure, at: 4)
    try statement.bind(columns.isHTTPOnly, at: 5)
    try statement.bind(columns.sameSite, at: 6)
    if let expires = columns.expires {
      try statement.bind(expires, at: 7)
    } else {
      try statement.bindNull(at: 7)
    }
    try statement.bind(columns.created, at: 8)
    try statement.bind(columns.lastAccess, at: 9)
    try statement.bind(columns.lastUpdate, at: 10)
    try statement.bind(columns.sourceScheme, at: 11)
    if let port = columns.sourcePort {
      try statement.bind(port, at: 12)
    } else {
      try statement.bindNull(at: 12)
    }
    try statement.bind(columns.source, at: 13)
  }
}

extension CookieRowSnapshot {
  /// Reads every row of the table, by creation time, then row id.
  static func read(_ connection: SQLiteConnection) throws -> CookieRowSnapshot {
    var snapshot = CookieRowSnapshot()
    let sorted = try read(connection, chunkRows: .max) { snapshot = $0 }
    if !sorted {
      snapshot.rows.sort { ($0.columns.created, $0.id) < ($1.columns.created, $1.id) }
    }
    return snapshot
  }

  /// Reads every row of the table in row-id order, handing `send` a
  /// snapshot of each `chunkRows` rows as soon as it is read.
  ///
  /// Row ids grow with time and a replacement keeps its row and its creation
  /// time, so row-id order is nearly always creation order: the caller
  /// sorts (by creation, then row id) only when the returned flag says the
  /// rows were not in creation order. That is ORDER BY created, id without
  /// SQLite copying every record into a sorter first.
  ///
  /// - Returns: whether the rows came in creation order.
  static func read(
    _ connection: SQLiteConnection, chunkRows: Int, send: (CookieRowSnapshot) -> Void
  ) throws -> Bool {
    var snapshot = CookieRowSnapshot()
    let statement = try connection.prepare(CookieColumns.selectSQL)
    var sorted = true
    var lastCreated = -Double.infinity
    try statement.forEachRow { row in
      if snapshot.rows.count == chunkRows {
        send(snapshot)
        snapshot = CookieRowSnapshot()
      }
      if snapshot.rows.isEmpty, chunkRows < .max {
        snapshot.rows.reserveCapacity(chunkRows)
        snapshot.sealed.reserveCapacity(chunkRows * 112)
      }
      let created = snapshot.append(row)
      if created < lastCreated { sorted = false }
      lastCreated = created
    }
    if !snapshot.rows.isEmpty || chunkRows == .max { send(snapshot) }
    return sorted
  }

  /// The rows whose change number is after `cursor` and not one of `own`'s
  /// (inside the caller's transaction), in row-id order.
  static func readChanged(
    _ connection: SQLiteConnection, after cursor: ChangeCursor, excluding own: OwnCommits
  ) throws -> CookieRowSnapshot {
    var snapshot = CookieRowSnapshot()
    let statement = try connection.prepare(CookieColumns.selectChangedSQL)
    try statement.bind(cursor.sequence, at: 1)
    try statement.forEachRow { row in
      guard !own.contains(row.int64(at: 14)) else { return }
      _ = snapshot.append(row)
    }
    return snapshot
  }

  /// Appends the current row of a ``CookieColumns/selectSQL`` statement;
  /// returns its creation time.
  private mutating func append(_ row: SQLiteStatement) -> Double {
    let start = sealed.count
    let sealedCount =
      row.withBlob(at: 2) { blob in
        sealed.append(contentsOf: blob)
        return blob.count
      } ?? -1
    let created = row.double(at: 8)
    rows.append(
      Row(
        id: row.int64(at: 0), identity: row.withBlob(at: 1) { RowHash(bytes: $0) } ?? nil,
        sealedStart: start, sealedCount: sealedCount,
        columns: CookieRowColumns(
          isHostOnly: row.bool(at: 3), isSecure: row.bool(at: 4), isHTTPOnly: row.bool(at: 5),
          sameSite: row.int64(at: 6), expires: row.isNull(at: 7) ? nil : row.double(at: 7),
          created: created, lastAccess: row.double(at: 9), lastUpdate: row.double(at: 10),
          sourceScheme: row.int64(at: 11),
          sourcePort: row.isNull(at: 12) ? nil : row.int64(at: 12), source: row.int64(at: 13))))
    return created
  }
}

/// The removal records of the `cookie_removals` table: read by other stores
/// catching up, and kept bounded.
enum CookieRemovalRows {
  /// How many removal records are kept when they are pruned; they are
  /// pruned once there may be twice as many.
  static let kept = 10_000

  /// Drops the oldest removal records once there may be more than twice
  /// ``kept`` (inside the caller's transaction), keeping the newest
  /// ``kept``, and raises the removal floor past the dropped ones: a store
  /// further behind reloads. The row-id span is the cheap bound checked
  /// first (replaced records take new row ids).
  static func prune(_ connection: SQLiteConnection) throws {
    let span = try connection.prepare(
      "SELECT coalesce(max(rowid) - min(rowid) + 1, 0) FROM cookie_removals")
    defer { span.reset() }
    guard try span.step(), span.int64(at: 0) > 2 * kept else { return }
    let cut = try connection.prepare(
      "SELECT change_seq FROM cookie_removals ORDER BY change_seq DESC LIMIT 1 OFFSET ?")
    defer { cut.reset() }
    try cut.bind(kept, at: 1)
    guard try cut.step() else { return }
    let floor = cut.int64(at: 0)
    try connection.run("DELETE FROM cookie_removals WHERE change_seq <= ?", [.integer(floor)])
    try SQLiteChangeSequence.raiseRemovalFloor(.cookies, to: floor, on: connection)
  }

  /// The removal rows after `cursor` not made by `own` (inside the caller's
  /// transaction).
  static func read(
    _ connection: SQLiteConnection, after cursor: ChangeCursor, excluding own: OwnCommits
  ) throws -> [CookieRemovalRow] {
    var rows: [CookieRemovalRow] = []
    let statement = try connection.prepare(CookieColumns.selectRemovalsSQL)
    try statement.bind(cursor.sequence, at: 1)
    try statement.forEachRow { row in
      guard !own.contains(row.int64(at: 1)) else { return }
      rows.append(
        CookieRemovalRow(
          identityHash: row.withBlob(at: 0) { RowHash(bytes: $0) } ?? nil,
          cause: row.int64(at: 2), sealed: row.blob(at: 3) ?? []))
    }
    return rows
  }
}
