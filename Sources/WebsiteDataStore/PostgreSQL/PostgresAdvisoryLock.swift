/// The transaction-scoped advisory locks a PostgreSQL store takes
/// (`pg_advisory_xact_lock(int4, int4)`, PostgreSQL §9.27.10): the first
/// key names what is locked, the second the store's schema
/// (`hashtext(current_schema())`), so that stores in other schemas of one
/// database never wait for each other.
enum PostgresAdvisoryLock: Int64 {
  /// Migrating the schema ("Webs" as a big-endian integer).
  case migration = 0x5765_6273
  /// Creating the key record, re-keying and settings.
  case meta = 0x5765_6274

  /// Takes the lock until the caller's transaction ends.
  func take(on connection: PostgresConnection) throws {
    try connection.execute(
      "SELECT pg_advisory_xact_lock($1::int4, hashtext(current_schema()))", [.int64(rawValue)])
  }
}
