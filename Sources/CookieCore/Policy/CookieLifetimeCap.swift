/// A cap on how long a cookie may live, and why (WebKit's client-side
/// cookie caps).
public struct CookieLifetimeCap: Sendable, Hashable, CustomStringConvertible {
  /// Why a cookie's life is capped.
  public enum Reason: String, Sendable, Hashable {
    /// Written by a script (`document.cookie`): tracking prevention caps
    /// such cookies (7 days).
    case scriptWritten = "written-by-script"
  }

  /// The longest life, in seconds from when the cookie is set.
  public var seconds: Double
  public var reason: Reason

  public init(seconds: Double, reason: Reason) {
    self.seconds = seconds
    self.reason = reason
  }

  public var description: String {
    let days = seconds / 86_400
    let span =
      days >= 1 && days == days.rounded() ? "\(Int(days)) days" : "\(Int(seconds / 3600)) hours"
    switch reason {
    case .scriptWritten: return "capped to \(span): written by script"
    }
  }
}
