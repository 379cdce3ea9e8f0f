/// The longest a cookie may live from when it is set, and why: tracking
/// prevention's caps (WebKit's client-side cookie cap, its cap after link
/// decoration, and its CNAME and IP address cloaking caps).
public struct CookieLifetimeCap: Sendable, Hashable, CustomStringConvertible {
  /// Why a cookie's life is capped.
  public enum Reason: String, Sendable, Hashable {
    /// Written by a script (`document.cookie`): tracking prevention caps
    /// such cookies (7 days).
    case scriptWritten = "written-by-script"
    /// Written by a script of a page reached by a cross-site navigation
    /// from a tracker with link decoration (a query or fragment): 24 hours.
    case linkDecoration = "link-decoration"
    /// Set by a first-party subresource whose host is an alias (CNAME) of
    /// another site's: 7 days.
    case cnameCloaking = "cname-cloaking"
    /// Set by a first-party subresource served from an address outside the
    /// top-level page's network: 7 days.
    case ipAddressCloaking = "ip-address-cloaking"
  }

  /// The longest life, in seconds from when the cookie is set.
  public var seconds: Double
  public var reason: Reason

  public init(seconds: Double, reason: Reason) {
    self.seconds = seconds
    self.reason = reason
  }

  public var description: String {
    // Whole days from two days up; hours below ("24 hours", not "1 days").
    let days = seconds / 86_400
    let hours = Int(seconds / 3600)
    let span =
      days >= 2 && days == days.rounded()
      ? "\(Int(days)) days" : hours == 1 ? "1 hour" : "\(hours) hours"
    let why =
      switch reason {
      case .scriptWritten: "written by script"
      case .linkDecoration: "written by script after a decorated link from a tracker"
      case .cnameCloaking: "first-party host is an alias of another site (CNAME cloaking)"
      case .ipAddressCloaking: "first-party host served from another network (IP cloaking)"
      }
    return "capped to \(span): \(why)"
  }
}
