import CookieCore

/// The cookies of a store on a PostgreSQL server (``RecordPersistence``):
/// rows sealed by the same codec as SQLite's (the server sees keyed hashes,
/// sealed blobs and the authenticated columns), a change sequence with
/// removal records for incremental catching up, and notifications that
/// wake the other clients (``PostgresChangeListener``).
///
/// Consistency: writes the store must decide against what is stored
/// (``commit(decidingAgainst:_:)``: every acknowledged write) run their
/// decision inside the write's transaction, after taking the cookies' row
/// of `change_sequence` (`UPDATE … RETURNING`, at READ COMMITTED) and
/// reading what others committed since the store's cursor: clients write
/// cookies one at a time, each deciding against every commit before it.
/// READ COMMITTED suffices because the row lock orders the writers and
/// each statement after it sees every earlier commit; SERIALIZABLE would
/// add serialization failures and a retry loop and protect nothing more.
/// Reads' refreshed access times and expiries, which nobody waits for, go
/// through the write queue as conditional statements (a touch applies only
/// to the row read; an expiry deletes only a row that expires no later), so
/// they can never undo a newer write.
final class PostgresCookieBackend: RecordPersistence {
  /// The connection that writes.
  let database: PostgresDatabase
  /// The connection that loads and catches up, so that a store's reads
  /// never wait behind its own write queued for the sequence's row lock.
  let reader: PostgresDatabase
  let codec: LockedCodec
  let keepsSessionCookies: Bool
  /// This client's name in the notifications it sends.
  let sender: String
  private let queue: WriteQueue<CookieWrite>
  private let own = OwnCommits()
  /// Woken by other clients' notifications, and the listener that does it
  /// (started once the store is observed).
  private let changeSignal: ChangeSignal
  private let listener: PostgresChangeListener

  init(
    database: PostgresDatabase, reader: PostgresDatabase, codec: LockedCodec,
    keepsSessionCookies: Bool, sender: String,
    changes: (signal: ChangeSignal, listener: PostgresChangeListener)
  ) {
    (changeSignal, listener) = changes
    self.database = database
    self.reader = reader
    self.codec = codec
    self.keepsSessionCookies = keepsSessionCookies
    self.sender = sender
    let own = own
    queue = WriteQueue { write in
      try await Self.write(
        write, database: database, codec: codec, own: own,
        keepsSessionCookies: keepsSessionCookies, sender: sender)
    }
  }

  var persistsMemoryOnlyRecords: Bool { keepsSessionCookies }

  var decidesInTransaction: Bool { true }

  func waitForChanges(upTo interval: Duration) async {
    listener.startIfNeeded()
    await changeSignal.wait(upTo: interval)
  }

  // MARK: - Reading

  func load() async throws -> RecordLoad<Cookie> {
    let codec = codec
    return try await PostgresStoreError.mapping {
      try await reader.transaction(.repeatableRead) { connection in
        try Self.load(connection, codec: codec)
      }
    }
  }

  /// Every row, opened (inside the caller's transaction).
  private static func load(_ connection: PostgresConnection, codec: LockedCodec) throws
    -> RecordLoad<Cookie>
  {
    let position = try PostgresChangeSequence.position(.cookies, on: connection)
    let snapshot = try PostgresCookieRows.readAll(connection)
    var cookies: [Cookie] = []
    cookies.reserveCapacity(snapshot.rows.count)
    var damaged = 0
    codec.withLock { codec in
      snapshot.sealed.withUnsafeBytes { sealed in
        for row in snapshot.rows {
          if let cookie = try? codec.cookie(row, sealed: sealed, seal: .allColumns) {
            cookies.append(cookie)
          } else {
            damaged += 1
          }
        }
      }
    }
    return RecordLoad(records: cookies, damagedCount: damaged, cursor: position.latest)
  }

  func changes(since cursor: ChangeCursor?) async throws -> RecordSync<Cookie, CookieRemoval> {
    await queue.drain()
    let own = own
    let codec = codec
    return try await PostgresStoreError.mapping {
      let position = try await reader.withConnection {
        try PostgresChangeSequence.position(.cookies, on: $0)
      }
      if let answer: RecordSync<Cookie, CookieRemoval> = position.answerWithoutReading(
        from: cursor, own: own)
      {
        return answer
      }
      return try await reader.transaction(.repeatableRead) { connection in
        try Self.sync(connection, from: cursor, latest: nil, own: own, codec: codec)
      }
    }
  }

  /// What others committed after `cursor` (inside the caller's
  /// transaction); `latest`, when given, is where the sequence stands (a
  /// writer that took the next number knows it), else it is read.
  private static func sync(
    _ connection: PostgresConnection, from cursor: ChangeCursor?, latest: ChangeCursor?,
    own: OwnCommits, codec: LockedCodec
  ) throws -> RecordSync<Cookie, CookieRemoval> {
    var position = try PostgresChangeSequence.position(.cookies, on: connection)
    if let latest { position.latest = latest }
    switch position.need(from: cursor, own: own) {
    case .everything:
      var load = try load(connection, codec: codec)
      load.cursor = position.latest
      return .reload(load)
    case .nothing:
      return position.latest == cursor ? .upToDate : .delta(RecordDelta(cursor: position.latest))
    case .after(let cursor):
      let changed = ChangedCookieRows(
        rows: try PostgresCookieRows.readChanged(connection, after: cursor, excluding: own),
        removals: try PostgresCookieRows.readRemovals(connection, after: cursor, excluding: own),
        cursor: position.latest)
      return .delta(codec.withLock { changed.opened(with: $0) })
    }
  }

  // MARK: - Writing

  func enqueue(_ write: CookieWrite, acknowledged: Bool) -> UInt64 {
    queue.enqueue(write, acknowledged: acknowledged)
  }

  func wait(_ ticket: UInt64) async throws { try await queue.wait(ticket) }

  func drain() async { await queue.drain() }

  /// Writes one (merged) write in one transaction.
  private static func write(
    _ write: CookieWrite, database: PostgresDatabase, codec: LockedCodec, own: OwnCommits,
    keepsSessionCookies: Bool, sender: String
  ) async throws {
    let rows = try codec.withLock {
      try PostgresCookieRows(write, codec: $0, keepsSessionCookies: keepsSessionCookies)
    }
    guard !rows.isEmpty else { return }
    guard rows.changesRecords else {
      // Access times alone take no change number.
      try await PostgresStoreError.mapping {
        try await database.transaction { try rows.apply(to: $0, sequence: 0) }
      }
      return
    }
    try await PostgresChangeSequence.commit(.cookies, on: database, own: own, sender: sender) {
      connection, sequence in try rows.apply(to: connection, sequence: sequence)
    }
  }

  func commit(
    decidingAgainst cursor: ChangeCursor?,
    _ decide: @escaping @Sendable (RecordSync<Cookie, CookieRemoval>) -> CookieWrite?
  ) async throws {
    // This client's earlier writes first: the decision must see them stored.
    await queue.drain()
    let own = own
    let codec = codec
    let keepsSessionCookies = keepsSessionCookies
    let sender = sender
    try await PostgresStoreError.mapping {
      try await database.withConnection { connection in
        // `decide` returning nothing rolls back (nothing to commit).
        struct NothingToWrite: Error {}
        do {
          try PostgresChangeSequence.ownedTransaction(.cookies, on: connection, own: own) {
            sequence in
            let sync = try Self.sync(
              connection, from: cursor, latest: ChangeCursor(sequence - 1), own: own, codec: codec
            )
            guard let write = decide(sync) else { throw NothingToWrite() }
            let rows = try codec.withLock {
              try PostgresCookieRows(write, codec: $0, keepsSessionCookies: keepsSessionCookies)
            }
            try rows.apply(to: connection, sequence: sequence)
            try PostgresChangeSequence.announce(.cookies, sender: sender, on: connection)
          }
        } catch is NothingToWrite {}
      }
    }
  }

  /// The current data key.
  var dataKey: SecretBytes { codec.withLock { $0.dataKey } }
}
