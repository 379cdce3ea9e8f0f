import CookieCore
import Foundation
import Synchronization

/// The encrypted SQLite backend of a persistent store: loads the cookies,
/// writes changes with group commit, and reads what other stores on the
/// file (other processes) committed since a cursor: every write
/// transaction takes the next number of the file's change sequence
/// (``SQLiteChangeSequence``) and marks its rows and removal records with
/// it, so a store applies only the rows others changed.
///
/// Thread-safe: the shared codec (OpenSSL contexts) is used under a lock
/// (``LockedCodec``); loads and large writes make codecs of their own for
/// the threads that decrypt or seal. SQLite work runs on the database
/// actor's own thread, never on the cooperative pool.
///
/// Large loads and writes use both cores: a load is read in chunks while
/// the chunks already read are decrypted on the cooperative pool; a large
/// write is sealed in chunks by a task while the database thread inserts the
/// chunks already sealed (``SealedChunkChannel``).
final class SQLiteCookieBackend: RecordPersistence {
  let database: SQLiteDatabase
  let keepsSessionCookies: Bool
  /// The codec of the store's rows; shared with ``SQLiteHSTSBackend``.
  let codec: LockedCodec
  private let queue: WriteQueue<CookieWrite>
  /// This backend's commits, left out of ``changes(since:)``.
  let own = OwnCommits()

  /// - Parameter facts: unused: rows carry no site column (removal by site
  ///   deletes the site's cookies by identity), so the backend needs no
  ///   public suffix lookups.
  init(
    database: SQLiteDatabase, keys: sending KeyMaterial, facts: any DomainFacts,
    keepsSessionCookies: Bool
  ) {
    self.database = database
    self.keepsSessionCookies = keepsSessionCookies
    let codec = LockedCodec(SealedRowCodec(keys: keys))
    self.codec = codec
    let own = own
    queue = WriteQueue { write in
      try await Self.write(
        changes: write.changes, accessed: write.accessed, erasing: write.erasing,
        database: database, codec: codec, own: own, keepsSessionCookies: keepsSessionCookies)
    }
  }

  // MARK: - Loading

  /// A load is read in chunks of this many rows: the database thread reads
  /// the next chunk while tasks on the cooperative pool open (decrypt) the
  /// previous ones, each with a codec of its own.
  static let loadChunkRows = 8192

  /// Whether session cookies are written too (normally they live in memory only).
  var persistsMemoryOnlyRecords: Bool { keepsSessionCookies }

  func load() async throws -> RecordLoad<Cookie> {
    let (chunks, continuation) = AsyncStream.makeStream(of: CookieRowSnapshot.self)
    async let reading = database.read { connection -> (cursor: ChangeCursor, sorted: Bool) in
      defer { continuation.finish() }
      let position = try SQLiteChangeSequence.position(.cookies, on: connection)
      let sorted = try CookieRowSnapshot.read(connection, chunkRows: Self.loadChunkRows) {
        continuation.yield($0)
      }
      return (position.latest, sorted)
    }
    let keys = codec.withLock { $0.keys }
    let parts = try await withThrowingTaskGroup(of: (Int, OpenedRows).self) { group in
      var count = 0
      for await chunk in chunks {
        let index = count
        count += 1
        group.addTask { (index, OpenedRows(chunk, codec: try SealedRowCodec(keys: keys))) }
      }
      var parts = [OpenedRows?](repeating: nil, count: count)
      for try await (index, part) in group { parts[index] = part }
      return parts.compactMap { $0 }
    }
    let (cursor, sorted) = try await reading
    return RecordLoad(merging: parts, sorted: sorted, cursor: cursor)
  }

  /// The cookies opened from one chunk of rows, with the row id of each, and
  /// the ids of the rows that did not open.
  ///
  /// The cookies are in a buffer of their own, which the merge moves into
  /// the load's array (no copy, no reference counting); a chunk that is not
  /// merged (the load failed) frees them.
  ///
  /// `@unchecked Sendable`: written by the task that opens the chunk, then
  /// handed over whole to the merge.
  final class OpenedRows: @unchecked Sendable {
    private let buffer: UnsafeMutablePointer<Cookie>
    private(set) var count = 0
    private var moved = false
    private(set) var ids: [Int64] = []
    private(set) var damaged: [Int64] = []

    /// Opens every row of `snapshot`, in order.
    init(_ snapshot: CookieRowSnapshot, codec: SealedRowCodec) {
      buffer = .allocate(capacity: max(snapshot.rows.count, 1))
      ids.reserveCapacity(snapshot.rows.count)
      snapshot.sealed.withUnsafeBytes { sealed in
        for row in snapshot.rows {
          do {
            (buffer + count).initialize(
              to: try codec.cookie(row, sealed: sealed, seal: .allColumns))
            count += 1
            ids.append(row.id)
          } catch {
            damaged.append(row.id)
          }
        }
      }
    }

    deinit {
      if !moved { buffer.deinitialize(count: count) }
      buffer.deallocate()
    }

    /// Moves the cookies to `destination`; the chunk no longer owns them.
    func moveCookies(to destination: UnsafeMutablePointer<Cookie>) {
      precondition(!moved)
      destination.moveInitialize(from: buffer, count: count)
      moved = true
    }
  }

  func changes(since cursor: ChangeCursor?) async throws -> RecordSync<Cookie, CookieRemoval> {
    await queue.drain()
    let own = own
    if let answer: RecordSync<Cookie, CookieRemoval> = try await SQLiteChangeSequence.glance(
      .cookies, on: database, from: cursor, own: own)
    {
      return answer
    }
    let read = try await database.read { connection -> ChangedCookieRows? in
      let position = try SQLiteChangeSequence.position(.cookies, on: connection)
      switch position.need(from: cursor, own: own) {
      case .everything: return nil
      case .nothing: return ChangedCookieRows(cursor: position.latest)
      case .after(let cursor):
        return ChangedCookieRows(
          rows: try CookieRowSnapshot.readChanged(connection, after: cursor, excluding: own),
          removals: try CookieRemovalRows.read(connection, after: cursor, excluding: own),
          cursor: position.latest)
      }
    }
    guard let read else { return .reload(try await load()) }
    guard !read.rows.rows.isEmpty || !read.removals.isEmpty else {
      // Only this backend's own commits (if any) came after the cursor.
      return read.cursor == cursor ? .upToDate : .delta(RecordDelta(cursor: read.cursor))
    }
    return .delta(codec.withLock { read.opened(with: $0) })
  }

  // MARK: - Writing

  func enqueue(_ write: CookieWrite, acknowledged: Bool) -> UInt64 {
    queue.enqueue(write, acknowledged: acknowledged)
  }

  func wait(_ ticket: UInt64) async throws { try await queue.wait(ticket) }

  /// The current data key.
  var dataKey: SecretBytes { codec.withLock { $0.dataKey } }

  /// Full re-encryption under a new, random data key wrapped by `newKey`:
  /// every readable row is decrypted and sealed again, and the new wrapped
  /// key stored, in ONE transaction — it happens entirely or not at all.
  /// Damaged rows (which no key opens) are left as they are. `resealing`
  /// re-seals the store's other tables (the HSTS rows) inside the same
  /// transaction, from the old codec to the new one.
  ///
  /// The shared codec is switched on the database thread right after the
  /// commit, before any other database call runs: rows sealed on that
  /// thread (HSTS) never use the old key afterwards.
  func reencrypt(
    newKey: KeySource,
    resealing:
      @escaping @Sendable (SQLiteConnection, SealedRowCodec, SealedRowCodec) throws ->
      Void
  ) async throws {
    await queue.drain()
    let (kek, scrypt) = try newKey.newStoreKey()
    let (dataKey, wrapped) = try KeyEnvelope.create(kek: kek)
    let newCodec = LockedCodec(SealedRowCodec(keys: try KeyMaterial(dataKey: dataKey)))
    let oldCodec = codec
    try await database.withConnection { connection in
      let replacement = try SealedRowCodec(keys: newCodec.withLock { $0.keys })
      try connection.transaction(.immediate) {
        // Every row changes, and the removal records are sealed under the
        // old key: they go, and other stores reload (``SQLiteChangeSequence``).
        let sequence = try SQLiteChangeSequence.next(.cookies, on: connection)
        let snapshot = try CookieRowSnapshot.read(connection)
        var readable: [(Int64, Cookie)] = []
        oldCodec.withLock { codec in
          snapshot.sealed.withUnsafeBytes { sealed in
            for row in snapshot.rows {
              if let cookie = try? codec.cookie(row, sealed: sealed, seal: .allColumns) {
                readable.append((row.id, cookie))
              }
            }
          }
        }
        let delete = try connection.prepare("DELETE FROM cookies WHERE id = ?")
        for (id, _) in readable {
          try delete.bind(id, at: 1)
          try delete.run()
        }
        var batch = CookieRowBatch(capacity: readable.count)
        try newCodec.withLock { codec in
          for (_, cookie) in readable {
            batch.operations.append(.upsert(try codec.appendRow(for: cookie, to: &batch)))
          }
        }
        batch.erases = true
        try Self.withBulkCache(connection, rows: batch.rows.count) {
          try batch.apply(to: connection, sequence: sequence)
        }
        try oldCodec.withLock { old in
          try newCodec.withLock { new in try resealing(connection, old, new) }
        }
        try StoreKeyRecord(scrypt: scrypt, wrappedKey: wrapped).write(connection)
      }
      oldCodec.replace(with: replacement)
    }
    _ = try await database.withConnection { try $0.checkpoint(.truncate) }
  }

  /// Waits until every queued write has been attempted.
  func drain() async { await queue.drain() }

  /// Above this many changes a write is sealed in chunks of
  /// ``pipelineChunk`` by a separate task while the database thread inserts
  /// the chunks already sealed; below, it is sealed first, then written.
  static let pipelineThreshold = 4096
  static let pipelineChunk = 2048

  /// Writes one batch of changes (and refreshed access times) in one
  /// transaction, in order, under the next number of the change sequence
  /// (recorded in `own`); returns once it committed. An erasing batch then
  /// truncates the journal, so no removed row lingers in it.
  static func write(
    changes: [CookieChange], accessed: [Cookie], erasing: Bool, database: SQLiteDatabase,
    codec: LockedCodec, own: OwnCommits, keepsSessionCookies: Bool
  ) async throws {
    try await writeRows(
      changes: changes, accessed: accessed, erasing: erasing, database: database, codec: codec,
      own: own, keepsSessionCookies: keepsSessionCookies)
    if erasing { _ = try await database.withConnection { try $0.checkpoint(.truncate) } }
  }

  /// The transaction of ``write(changes:accessed:erasing:database:codec:own:keepsSessionCookies:)``.
  private static func writeRows(
    changes: [CookieChange], accessed: [Cookie], erasing: Bool, database: SQLiteDatabase,
    codec: LockedCodec, own: OwnCommits, keepsSessionCookies: Bool
  ) async throws {
    guard changes.count >= pipelineThreshold, ProcessInfo.processInfo.activeProcessorCount > 1
    else {
      let batch = try codec.withLock { codec in
        var batch = try seal(
          changes: changes[...], accessed: accessed, codec: codec,
          keepsSessionCookies: keepsSessionCookies)
        batch.erases = erasing
        return batch
      }
      guard !batch.isEmpty else { return }
      guard batch.changesRecords else {
        // Refreshed access times alone take no change number.
        try await database.write { try batch.apply(to: $0, sequence: 0) }
        return
      }
      try await SQLiteChangeSequence.commit(.cookies, on: database, own: own) {
        connection, sequence in
        try Self.withBulkCache(connection, rows: batch.rows.count) {
          try batch.apply(to: connection, sequence: sequence)
        }
      }
      return
    }
    // Pipelined: a codec of its own for the sealing task, so the shared one
    // stays free for loads meanwhile.
    let keys = codec.withLock { $0.keys }
    let channel = SealedChunkChannel()
    let sealer = Task {
      do {
        let codec = try SealedRowCodec(keys: keys)
        var start = changes.startIndex
        while start < changes.endIndex {
          let end = min(start + pipelineChunk, changes.endIndex)
          var chunk = try seal(
            changes: changes[start..<end], accessed: end == changes.endIndex ? accessed : [],
            codec: codec, keepsSessionCookies: keepsSessionCookies)
          chunk.erases = erasing && end == changes.endIndex
          guard channel.send(chunk) else { return }
          start = end
        }
        channel.finish()
      } catch {
        channel.finish(throwing: error)
      }
    }
    do {
      try await SQLiteChangeSequence.commit(.cookies, on: database, own: own) {
        connection, sequence in
        try Self.withBulkCache(connection, rows: changes.count) {
          while let chunk = try channel.receive() {
            try chunk.apply(to: connection, sequence: sequence)
          }
        }
      }
    } catch {
      channel.cancel()
      await sealer.value
      throw error
    }
    await sealer.value
  }

  /// Seals changes into statements, in order. Session cookies are written
  /// only when the store keeps them; removals always delete, and record the
  /// removal for other stores, but for a cookie overwritten by a twin that
  /// is written next: the twin's upsert replaces its row.
  private static func seal(
    changes: ArraySlice<CookieChange>, accessed: [Cookie], codec: SealedRowCodec,
    keepsSessionCookies: Bool
  ) throws -> CookieRowBatch {
    var batch = CookieRowBatch(capacity: changes.count)
    try changes.withUnsafeBufferPointer { changes in
      // Through a pointer: no copy of each change (and no retain of its
      // strings, whose reference counts are cold after a large import).
      func isWritten(_ cookie: Cookie) -> Bool { keepsSessionCookies || !cookie.isSession }
      for index in changes.indices {
        let change = changes.baseAddress! + index
        if change.pointee.isRemoval {
          if change.pointee.cause == .overwritten, index + 1 < changes.count,
            changes[index + 1].cause == .inserted, isWritten(changes[index + 1].cookie),
            changes[index + 1].cookie.identity == change.pointee.cookie.identity
          {
            continue
          }
          batch.removals.append(
            try codec.removalRow(for: change.pointee.cookie.identity, cause: change.pointee.cause))
          batch.operations.append(.remove(batch.removals.count - 1))
        } else if isWritten(change.pointee.cookie) {
          batch.operations.append(
            .upsert(try codec.appendRow(for: change.pointee.cookie, to: &batch)))
        }
      }
    }
    for cookie in accessed where keepsSessionCookies || !cookie.isSession {
      try codec.appendTouch(for: cookie, to: &batch)
    }
    return batch
  }

  /// Above this many rows a write gets a larger page cache for its
  /// transaction (``bulkCacheKiB``), then the default again.
  static let bulkCacheThreshold = 2000
  /// The page cache of a bulk write: enough for the unique index of a few
  /// hundred thousand rows, so index pages are not spilled to the WAL and
  /// read back while the transaction runs.
  static let bulkCacheKiB = 32 * 1024

  /// Runs `body` with a page cache of ``bulkCacheKiB`` when `rows` is large.
  static func withBulkCache<T>(_ connection: SQLiteConnection, rows: Int, _ body: () throws -> T)
    throws -> T
  {
    guard rows >= bulkCacheThreshold else { return try body() }
    let size = try connection.makeStatement("PRAGMA cache_size")
    let previous = try size.step() ? size.int64(at: 0) : -2000
    size.reset()
    try connection.execute("PRAGMA cache_size = -\(bulkCacheKiB)")
    defer { try? connection.execute("PRAGMA cache_size = \(previous)") }
    return try body()
  }
}

extension RecordLoad<Cookie> {
  /// The load made of chunks opened in row-id order: concatenated, then
  /// sorted by creation time and row id unless the rows were already in
  /// that order.
  init(merging parts: [SQLiteCookieBackend.OpenedRows], sorted: Bool, cursor: ChangeCursor) {
    let total = parts.reduce(0) { $0 + $1.count }
    var cookies = [Cookie](unsafeUninitializedCapacity: total) { buffer, initialized in
      for part in parts {
        part.moveCookies(to: buffer.baseAddress! + initialized)
        initialized += part.count
      }
    }
    if !sorted {
      let ids = parts.flatMap(\.ids)
      let order = cookies.indices.sorted {
        (cookies[$0].createdAt, ids[$0]) < (cookies[$1].createdAt, ids[$1])
      }
      cookies = order.map { cookies[$0] }
    }
    self.init(
      records: cookies, damagedCount: parts.reduce(0) { $0 + $1.damaged.count }, cursor: cursor)
  }
}
