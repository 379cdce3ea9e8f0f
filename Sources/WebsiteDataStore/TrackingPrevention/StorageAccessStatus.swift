/// What a cross-site request tells of its storage access: the Storage
/// Access Headers' `Sec-Fetch-Storage-Access` value (PrivacyCG Storage
/// Access Headers, as Chromium ships them).
public enum StorageAccessStatus: String, Sendable, Hashable {
  /// No storage access grant for the pair.
  case none
  /// A grant exists, but the requesting document has not opted in: its
  /// unpartitioned cookies are not sent (a server may answer
  /// `Activate-Storage-Access`).
  case inactive
  /// A grant exists and is in use: its unpartitioned cookies are sent.
  case active
}
