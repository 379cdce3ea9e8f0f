import CPostgres
import Foundation
import Glibc

/// One connection to a PostgreSQL server through libpq (`PQconnectdb`,
/// `PQexecParams`), synchronous: it blocks its caller, so it belongs to one
/// thread at a time (``PostgresDatabase`` gives it one of its own).
///
/// Parameters and results travel in binary format (no quoting, no
/// escaping: values never enter the SQL text). The connection string is
/// never kept or repeated in an error, since it may hold a password.
package final class PostgresConnection {
  /// The `PGconn`; `nil` once closed.
  private var connection: OpaquePointer?

  /// Connects with `connectionString` (a `postgresql://` URI or
  /// `key=value` pairs; libpq honours `sslmode`, `connect_timeout` and the
  /// `PG…` environment variables).
  ///
  /// - Throws: ``PostgresError`` `.connection` with libpq's reason.
  package init(_ connectionString: String) throws(PostgresError) {
    guard let connection = PQconnectdb(connectionString) else {
      throw PostgresError(.connection, message: "libpq could not allocate a connection")
    }
    guard PQstatus(connection) == CONNECTION_OK else {
      let message = Self.message(PQerrorMessage(connection))
      PQfinish(connection)
      throw PostgresError(.connection, message: message)
    }
    self.connection = connection
  }

  deinit { close() }

  /// Closes the connection (`PQfinish`); later statements fail with
  /// `.connectionLost`.
  package func close() {
    if let connection { PQfinish(connection) }
    connection = nil
  }

  /// Whether the connection is still up (`PQstatus`).
  package var isConnected: Bool {
    connection.map { PQstatus($0) == CONNECTION_OK } ?? false
  }

  /// Whether the connection still works as far as can be told without a
  /// round trip: an idle connection with input waiting (the server's
  /// goodbye after a shutdown or `pg_terminate_backend`, or the end of the
  /// stream) reads it (`PQconsumeInput`), which marks a lost connection
  /// bad. A `poll(2)` with no wait when nothing is waiting.
  package var isUsable: Bool {
    guard let connection, PQstatus(connection) == CONNECTION_OK else { return false }
    var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
    if poll(&descriptor, 1, 0) > 0 {
      guard PQconsumeInput(connection) == 1 else { return false }
    }
    return PQstatus(connection) == CONNECTION_OK
  }

  /// Runs one statement with `$1`, `$2`… bound to `parameters`.
  ///
  /// - Throws: ``PostgresError`` `.statement` with the server's SQLSTATE
  ///   and primary message, or `.connectionLost`.
  @discardableResult
  package func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError)
    -> PostgresRows
  {
    guard let connection else {
      throw PostgresError(.connectionLost, message: "the connection is closed")
    }
    let encoded = parameters.map(\.encoded)
    let types = encoded.map(\.type)
    let lengths = encoded.map { Int32($0.bytes?.count ?? 0) }
    let formats = [Int32](repeating: 1, count: encoded.count)
    // Each value's bytes, kept alive while libpq reads them.
    let buffers: [UnsafeMutableRawBufferPointer?] = encoded.map { value in
      value.bytes.map { bytes in
        let buffer = UnsafeMutableRawBufferPointer.allocate(
          byteCount: max(1, bytes.count), alignment: 1)
        buffer.copyBytes(from: bytes)
        return buffer
      }
    }
    defer { for buffer in buffers { buffer?.deallocate() } }
    let values = buffers.map { buffer in
      buffer.map { UnsafePointer($0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
    }
    let result = PQexecParams(
      connection, sql, Int32(parameters.count), types, values, lengths, formats, 1)
    return try rows(of: result, on: connection)
  }

  /// Runs `sql`, which may hold several statements (a migration), in text
  /// format without parameters (`PQexec`).
  package func executeScript(_ sql: String) throws(PostgresError) {
    guard let connection else {
      throw PostgresError(.connectionLost, message: "the connection is closed")
    }
    _ = try rows(of: PQexec(connection, sql), on: connection)
  }

  // MARK: - LISTEN / NOTIFY

  /// This session's backend process id (`PQbackendPID`), which
  /// ``PostgresNotification/senderProcess`` names.
  package var backendProcess: Int32 { connection.map { PQbackendPID($0) } ?? 0 }

  /// Starts listening on `channel` (lower-case letters, digits and `_`:
  /// an identifier that needs no quoting).
  package func listen(on channel: String) throws(PostgresError) {
    try execute("LISTEN " + (try Self.checked(channel)))
  }

  /// Sends `payload` on `channel` (`pg_notify`), delivered when the
  /// current transaction commits.
  package func notify(_ channel: String, payload: String = "") throws(PostgresError) {
    try execute("SELECT pg_notify($1, $2)", [.text(try Self.checked(channel)), .text(payload)])
  }

  /// The notifications that came, waiting up to `timeout` for the first
  /// (`poll(2)` on `PQsocket`, then `PQconsumeInput` and `PQnotifies`); an
  /// empty list when none came in time.
  ///
  /// - Throws: `.connectionLost` when the connection went.
  package func notifications(waitingUpTo timeout: Duration) throws(PostgresError)
    -> [PostgresNotification]
  {
    guard let connection else {
      throw PostgresError(.connectionLost, message: "the connection is closed")
    }
    var received = try drain(connection)
    guard received.isEmpty else { return received }
    let socket = PQsocket(connection)
    guard socket >= 0 else {
      throw PostgresError(.connectionLost, message: "the connection has no socket")
    }
    var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    let milliseconds = Int32(
      clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds
        / 1_000_000_000_000_000)
    let ready = poll(&descriptor, 1, milliseconds)
    if ready > 0 { received = try drain(connection) }
    return received
  }

  /// Reads what the server sent (`PQconsumeInput`) and takes every pending
  /// notification.
  private func drain(_ connection: OpaquePointer) throws(PostgresError) -> [PostgresNotification] {
    guard PQconsumeInput(connection) == 1 else {
      throw PostgresError(.connectionLost, message: Self.message(PQerrorMessage(connection)))
    }
    var received: [PostgresNotification] = []
    while let notice = PQnotifies(connection) {
      received.append(
        PostgresNotification(
          channel: String(cString: notice.pointee.relname),
          payload: notice.pointee.extra.map { String(cString: $0) } ?? "",
          senderProcess: notice.pointee.be_pid))
      PQfreemem(notice)
    }
    return received
  }

  /// `channel`, when it is a plain lower-case identifier.
  private static func checked(_ channel: String) throws(PostgresError) -> String {
    guard let first = channel.utf8.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z"),
      channel.utf8.count <= 63,
      channel.utf8.allSatisfy({
        ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
          || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_")
      })
    else {
      throw PostgresError(
        .statement, message: "a channel name is [a-z][a-z0-9_]*, at most 63 bytes")
    }
    return channel
  }

  /// The rows of `result` (cleared here), or its error.
  private func rows(of result: OpaquePointer?, on connection: OpaquePointer) throws(PostgresError)
    -> PostgresRows
  {
    guard let result else {
      throw PostgresError(
        PQstatus(connection) == CONNECTION_OK ? .statement : .connectionLost,
        message: Self.message(PQerrorMessage(connection)))
    }
    defer { PQclear(result) }
    let status = PQresultStatus(result)
    guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
      let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
      let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
      let lost = PQstatus(connection) != CONNECTION_OK
      throw PostgresError(
        lost && state == nil ? .connectionLost : .statement, sqlState: state,
        message: primary ?? Self.message(PQerrorMessage(connection)))
    }
    let columnCount = PQnfields(result)
    let columns = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
    let types = (0..<columnCount).map { PQftype(result, $0) }
    var rows: [[PostgresValue]] = []
    let rowCount = PQntuples(result)
    rows.reserveCapacity(Int(rowCount))
    for row in 0..<rowCount {
      rows.append(
        (0..<columnCount).map { column in
          guard PQgetisnull(result, row, column) == 0, let value = PQgetvalue(result, row, column)
          else { return .null }
          let length = Int(PQgetlength(result, row, column))
          return PostgresValue(
            binary: UnsafeRawBufferPointer(start: value, count: length), type: types[Int(column)])
        })
    }
    let changed = PQcmdTuples(result).map { Int(String(cString: $0)) ?? 0 } ?? 0
    return PostgresRows(columns: columns, rows: rows, changed: changed)
  }

  /// libpq's message, without its trailing newline.
  private static func message(_ text: UnsafePointer<CChar>?) -> String {
    let message = text.map { String(cString: $0) } ?? "unknown libpq error"
    return message.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
