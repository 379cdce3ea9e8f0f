import WebsiteDataStore

/// A DNS server the loader asks instead of the system's resolver, as curl's
/// `--dns-servers` (`CURLOPT_DNS_SERVERS`) does: an IPv4 address and a
/// port. Its answers give the address each hop connects to (handed to
/// libcurl as a `CURLOPT_RESOLVE` entry) and the host's CNAME chain, which
/// tracking prevention's CNAME cloaking cap reads. Hosts with a
/// ``ResolveOverride`` are not asked about.
public struct NameServer: Sendable, Hashable, CustomStringConvertible {
  /// The server's IPv4 address.
  public var address: String
  /// Its UDP port (53 by default).
  public var port: Int

  /// A name server at `address`:`port`.
  public init(address: String, port: Int = 53) {
    self.address = address
    self.port = port
  }

  /// Parses `ADDRESS` or `ADDRESS:PORT` (an IPv4 address, a port from 1 to
  /// 65535); `nil` for anything else.
  public init?(_ text: String) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count <= 2, let address = parts.first else { return nil }
    var port = 53
    if parts.count == 2 {
      guard let given = Int(parts[1]) else { return nil }
      port = given
    }
    self.init(address: String(address), port: port)
    guard isValid else { return nil }
  }

  /// Whether the address is IPv4 and the port from 1 to 65535.
  public var isValid: Bool {
    NetworkAddress(address)?.isIPv4 == true && (1...65535).contains(port)
  }

  /// `ADDRESS:PORT`.
  public var description: String { "\(address):\(port)" }
}
