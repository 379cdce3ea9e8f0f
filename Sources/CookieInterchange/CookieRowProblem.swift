import WebsiteDataStore

/// Why one row of a browser's cookie database could not be read: it becomes
/// a ``CookieImportIssue`` for that row and the rest of the file is read.
///
/// The reason names columns and formats, never a cookie value.
struct CookieRowProblem: Error, Hashable {
  /// Why, in plain words.
  let reason: String

  init(_ reason: String) {
    self.reason = reason
  }

  /// The issue for the row with `rowID`.
  func issue(rowID: Int64) -> CookieImportIssue {
    CookieImportIssue(location: "row \(rowID)", reason: reason)
  }
}
