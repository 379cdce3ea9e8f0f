/// How one redirect status changes the request's method and body, as
/// browsers do it (WHATWG Fetch §4.4 "HTTP-redirect fetch", step 12).
public enum RedirectRule: Sendable, Hashable, CustomStringConvertible {
  /// The next request keeps the method and the body (307, 308; 301 and 302
  /// for anything but POST; 303 for HEAD).
  case keepMethodAndBody
  /// The next request is a GET without a body or the body's header fields
  /// (301 and 302 after a POST; 303 after anything but GET and HEAD).
  case switchToGET

  /// The rule for a redirect `status` after a request with `method`; `nil`
  /// when `status` is not a redirect status (300 and 304 are final).
  public static func forStatus(_ status: Int, method: String) -> RedirectRule? {
    switch status {
    case 301, 302: method == "POST" ? .switchToGET : .keepMethodAndBody
    case 303: method == "GET" || method == "HEAD" ? .keepMethodAndBody : .switchToGET
    case 307, 308: .keepMethodAndBody
    default: nil
    }
  }

  public var description: String {
    switch self {
    case .keepMethodAndBody: "keep method and body"
    case .switchToGET: "switch to GET"
    }
  }
}
