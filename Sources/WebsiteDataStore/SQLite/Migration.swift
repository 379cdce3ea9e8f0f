/// One step of the store's schema: SQL that runs once, in its own
/// transaction, and is recorded in the `schema_migrations` ledger.
///
/// Migrations are immutable once shipped: a store remembers each applied
/// migration by version and name, and ``Migrator`` refuses a store whose
/// ledger disagrees. The shipped list is ``EmbeddedMigrations/all``, generated
/// at build time from the package's `Migrations/NNNN_name.sql` files.
package struct Migration: Hashable, Sendable {
  /// The position in the schema's history: 1, 2, 3, … (the file's `NNNN`).
  package let version: Int
  /// The name after the version in the file name (`cookies` for
  /// `0001_cookies.sql`).
  package let name: String
  /// The SQL script (one or more statements, no transaction control).
  package let sql: String

  /// A migration.
  package init(version: Int, name: String, sql: String) {
    self.version = version
    self.name = name
    self.sql = sql
  }

  /// `NNNN_name`, as in the file name.
  package var label: String {
    let digits = String(version)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "_" + name
  }
}
