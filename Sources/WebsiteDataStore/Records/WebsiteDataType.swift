/// A kind of website data a store keeps (WebKit's `WKWebsiteDataTypeCookies`
/// and friends). Extensible: new kinds are new constants, not new API.
///
/// The raw values are used by the CLI (`--types cookies,hsts`) and must never change.
public struct WebsiteDataType: RawRepresentable, Hashable, Sendable, Comparable,
  CustomStringConvertible
{
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }

  /// HTTP cookies.
  public static let cookies = WebsiteDataType(rawValue: "cookies")
  /// HTTP Strict Transport Security entries (RFC 6797).
  public static let hsts = WebsiteDataType(rawValue: "hsts")

  /// Every type this version knows.
  public static let allTypes: Set<WebsiteDataType> = [.cookies, .hsts]

  public var description: String { rawValue }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The data a store holds for one site (WebKit's `WKWebsiteDataRecord`):
/// grouped by registrable domain, with the types present.
public struct WebsiteDataRecord: Hashable, Sendable, CustomStringConvertible {
  /// The registrable domain (or the host, for IP addresses and public suffixes).
  public let displayName: String
  /// The kinds of data present for it.
  public let dataTypes: Set<WebsiteDataType>

  /// Creates a record.
  public init(displayName: String, dataTypes: Set<WebsiteDataType>) {
    self.displayName = displayName
    self.dataTypes = dataTypes
  }

  public var description: String {
    "\(displayName) (\(dataTypes.sorted().map(\.rawValue).joined(separator: ", ")))"
  }
}
