/// A fixed address for a host and port, bypassing DNS (curl's
/// `CURLOPT_RESOLVE` entry `host:port:address`).
///
/// The request still carries the real host name (Host header, TLS SNI and
/// certificate check); only the connection goes to `address`.
public struct ResolveOverride: Sendable, Hashable, CustomStringConvertible {
  /// The host name as it appears in URLs (lower-case ASCII).
  public var host: String
  /// The port.
  public var port: Int
  /// The IPv4 or IPv6 address to connect to (IPv6 without brackets).
  public var address: String

  /// Creates an override.
  public init(host: String, port: Int, address: String) {
    self.host = host
    self.port = port
    self.address = address
  }

  /// `host:port:address`, with an IPv6 address in brackets, as curl expects.
  public var description: String {
    let formattedAddress = address.contains(":") ? "[\(address)]" : address
    return "\(host):\(port):\(formattedAddress)"
  }
}
