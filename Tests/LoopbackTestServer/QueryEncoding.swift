import Foundation

extension String {
  /// The string percent-encoded for a query parameter value (everything but
  /// unreserved characters), so that URLs nest inside `to=` parameters.
  public var queryEncoded: String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return addingPercentEncoding(withAllowedCharacters: allowed) ?? self
  }
}
