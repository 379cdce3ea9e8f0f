import WebsiteData

/// How the CLI words a store failure: what went wrong in the user's terms
/// first ("the disk is full", "permission denied"), then the store's own
/// message. One place for every command; never a secret (store messages
/// hold none).
enum StoreErrorText {
  /// The reason `error` gives, for "cannot open …: <reason>" and
  /// "… could not be changed: <reason>".
  static func reason(_ error: any Error) -> String {
    guard let storeError = error as? WebsiteDataStoreError else { return "\(error)" }
    switch storeError.code {
    case .full:
      return "the disk is full (\(storeError.message))"
    case .readOnly:
      return "permission denied: the store or its folder is read-only for this user"
        + " (\(storeError.message))"
    case .busy:
      return "another process holds the store locked (\(storeError.message))"
    default:
      return storeError.message
    }
  }

  /// The failure of a command whose change to `displayName` did not
  /// happen; nothing of it was acknowledged.
  static func changeFailed(_ error: any Error, displayName: String) -> CLIError {
    .failure("\(displayName) could not be changed, nothing was: \(reason(error))")
  }
}
