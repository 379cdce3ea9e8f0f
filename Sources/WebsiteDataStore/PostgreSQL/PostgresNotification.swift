/// A `NOTIFY` another session sent on a channel this one listens to
/// (PostgreSQL `LISTEN`/`NOTIFY`; libpq's `PQnotifies`): delivered only
/// once the sender's transaction committed.
package struct PostgresNotification: Sendable, Hashable {
  /// The channel.
  package let channel: String
  /// The payload (at most 8000 bytes; empty when none was given).
  package let payload: String
  /// The sending session's backend process (`PQbackendPID` of the sender),
  /// so that a client can tell its own notifications.
  package let senderProcess: Int32
}
