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

  /// Web storage: `localStorage`-style areas (HTML §12.2), partitioned by
  /// ``StorageKey`` (WebKit's `WKWebsiteDataTypeLocalStorage`).
  public static let localStorage = WebsiteDataType(rawValue: "local-storage")

  /// The HTTP cache: responses the loader stored (RFC 9111), partitioned
  /// by ``HTTPCachePartitionKey`` (WebKit's `WKWebsiteDataTypeMemoryCache`).
  public static let httpCache = WebsiteDataType(rawValue: "http-cache")

  /// Every type this version knows.
  public static let allTypes: Set<WebsiteDataType> = [.cookies, .hsts, .localStorage, .httpCache]

  public var description: String { rawValue }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The data a store holds for one site (WebKit's `WKWebsiteDataRecord`):
/// grouped by registrable domain, with the types present and, when asked
/// for, their sizes.
public struct WebsiteDataRecord: Hashable, Sendable, CustomStringConvertible {
  /// The registrable domain (or the host, for IP addresses and public suffixes).
  public let displayName: String
  /// The kinds of data present for it.
  public let dataTypes: Set<WebsiteDataType>
  /// The bytes each kind holds for the site (WebKit's `_WKWebsiteDataSize`),
  /// when the records were fetched `computingSizes`; `nil` otherwise.
  /// Cookies count their names and values (UTF-8), HSTS entries their
  /// hosts, web storage its keys and values as UTF-16 (two bytes a code
  /// unit, as browsers store them). Data partitioned under the site counts
  /// for it too, as it does in ``dataTypes``.
  public let sizes: [WebsiteDataType: Int]?

  /// Creates a record.
  public init(
    displayName: String, dataTypes: Set<WebsiteDataType>, sizes: [WebsiteDataType: Int]? = nil
  ) {
    self.displayName = displayName
    self.dataTypes = dataTypes
    self.sizes = sizes
  }

  /// The bytes of every kind together, when sizes were computed.
  public var totalSize: Int? { sizes.map { $0.values.reduce(0, +) } }

  public var description: String {
    "\(displayName) (\(dataTypes.sorted().map(\.rawValue).joined(separator: ", ")))"
  }
}
