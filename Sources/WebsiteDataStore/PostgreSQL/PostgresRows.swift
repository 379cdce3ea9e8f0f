/// What a statement returned: its rows (binary values) and how many rows
/// it changed.
package struct PostgresRows: Sendable {
  /// The column names, in order.
  package let columns: [String]
  /// The rows, each with one value per column.
  package let rows: [[PostgresValue]]
  /// The rows an `INSERT`, `UPDATE` or `DELETE` changed (`PQcmdTuples`); 0
  /// for other statements.
  package let changed: Int

  /// The first row's first value, if any.
  package var scalar: PostgresValue? { rows.first?.first }
}
