/// Why a cookie that a policy would withhold is sent anyway (Chromium's
/// `CookieInclusionStatus::ExemptionReason`).
public enum CookieExemptionReason: String, Sendable, Hashable, CustomStringConvertible {
  /// The embedded site holds a storage access grant under this top-level
  /// site (the Storage Access API): its unpartitioned cookies are sent in
  /// this third-party context.
  case storageAccess = "storage-access"

  public var description: String {
    switch self {
    case .storageAccess: "sent: storage access grant"
    }
  }
}
