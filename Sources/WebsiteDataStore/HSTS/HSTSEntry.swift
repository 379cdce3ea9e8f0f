import Foundation

/// One Known HSTS Host (RFC 6797 §5.2, §8.1.1): a host that asked, over a
/// secure connection, to be reached only over HTTPS until ``expiresAt``.
///
/// ``host`` is the host's canonical form: lower-case ASCII (IDNA already
/// applied, A-labels), no trailing dot, never an IP literal. ``HSTSStore``
/// canonicalises what it is given; a value built here is stored as given
/// only once it is canonical.
///
/// The description shows the host, the flag and the dates: hosts are not
/// secrets, and an entry holds nothing else.
public struct HSTSEntry: Sendable, Hashable, CustomStringConvertible {
  /// The host (RFC 6797 §8.1.1 "the Known HSTS Host's domain name").
  public var host: String
  /// Whether subdomains of ``host`` are upgraded too (`includeSubDomains`,
  /// RFC 6797 §6.1.2).
  public var includesSubdomains: Bool
  /// When the entry stops applying: the time of the last observation plus
  /// its `max-age` (RFC 6797 §6.1.1).
  public var expiresAt: Date
  /// When the entry was last set (the observation its expiry counts from).
  public var createdAt: Date

  /// An entry with every field given.
  public init(host: String, includesSubdomains: Bool, expiresAt: Date, createdAt: Date) {
    self.host = host
    self.includesSubdomains = includesSubdomains
    self.expiresAt = expiresAt
    self.createdAt = createdAt
  }

  /// Whether the entry has expired at `now` (its expiry is not in the future).
  public func isExpired(at now: Date) -> Bool { expiresAt <= now }

  public var description: String {
    var text = "HSTSEntry(\(host)"
    if includesSubdomains { text += "; includeSubDomains" }
    text += "; expires \(expiresAt.formatted(.iso8601))"
    text += "; created \(createdAt.formatted(.iso8601)))"
    return text
  }
}
