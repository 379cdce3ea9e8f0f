/// Why an OAuth flow failed. Messages never contain a token, code,
/// verifier, password or cookie value.
public struct OAuthError: Error, Hashable, CustomStringConvertible {
  /// What went wrong, as a stable, extensible code.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// A request the flow was asked to make is malformed (RFC 6749 §5.2
    /// `invalid_request`, or a bad parameter given to the API).
    public static let invalidRequest = Code("invalid-request")
    /// The provider's metadata could not be fetched or read (OpenID
    /// Connect Discovery §4, RFC 8414 §3).
    public static let discoveryFailed = Code("discovery-failed")
    /// A response named another issuer than the one asked (OpenID Connect
    /// Discovery §4.3, RFC 8414 §3.3, RFC 9207 §2.4).
    public static let issuerMismatch = Code("issuer-mismatch")
    /// An endpoint or redirect URI is plain http on a host that is not
    /// loopback (RFC 8252 §8.3; RFC 6749 §3.1.2.1).
    public static let insecureEndpoint = Code("insecure-endpoint")
    /// A JWS (an ID token) is malformed, uses an algorithm other than
    /// RS256 or ES256, names no known key, or its signature does not
    /// verify (RFC 7515 §5.2).
    public static let badSignature = Code("bad-signature")
  }

  /// The kind of failure.
  public let code: Code
  /// A human-readable message; never a secret.
  public let message: String

  init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { "\(code): \(message)" }
}
