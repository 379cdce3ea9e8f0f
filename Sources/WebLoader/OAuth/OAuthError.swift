import Foundation

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
    /// The ID token's claims do not hold: `iss`, `aud`, `azp`, `exp` or
    /// `iat` (OpenID Connect Core §3.1.3.7).
    public static let invalidIDToken = Code("invalid-id-token")
    /// The ID token's `nonce` is not the one the request sent (OpenID
    /// Connect Core §3.1.3.7 step 11).
    public static let nonceMismatch = Code("nonce-mismatch")
    /// The authorization response's `state` is missing or not the one the
    /// request sent (RFC 6749 §4.1.2, §10.12).
    public static let stateMismatch = Code("state-mismatch")
    /// The user (or the provider) declined: `access_denied` (RFC 6749
    /// §4.1.2.1).
    public static let accessDenied = Code("access-denied")
    /// The provider answered the authorization request with another error
    /// (RFC 6749 §4.1.2.1: `invalid_scope`, `server_error`...; see
    /// ``OAuthError/providerError``).
    public static let authorizationFailed = Code("authorization-failed")
    /// The token endpoint refused the code or refresh token: expired,
    /// revoked, already used, or issued to another client (RFC 6749 §5.2
    /// `invalid_grant`).
    public static let invalidGrant = Code("invalid-grant")
    /// The token endpoint did not accept the client's authentication (RFC
    /// 6749 §5.2 `invalid_client`).
    public static let invalidClient = Code("invalid-client")
    /// The token endpoint failed otherwise: another §5.2 error, an answer
    /// that is not a token response (§5.1), or no answer.
    public static let tokenRequestFailed = Code("token-request-failed")
    /// The provider sent the browser to the redirect URI's origin with a
    /// path other than the registered one (RFC 6749 §3.1.2; RFC 8252 §7).
    public static let redirectURIMismatch = Code("redirect-uri-mismatch")
    /// The login pages did not lead to the redirect URI: the login driver
    /// had nothing to submit, the same form came back (wrong credentials),
    /// a page failed to load, or too many steps. ``OAuthError/pageURL``
    /// and ``OAuthError/pageTitle`` say where it stopped.
    public static let loginDidNotComplete = Code("login-did-not-complete")
  }

  /// The kind of failure.
  public let code: Code
  /// A human-readable message; never a secret.
  public let message: String
  /// The provider's RFC 6749 §4.1.2.1 / §5.2 `error` code, when it sent one.
  public let providerError: String?
  /// The page the login stopped on, without its query and fragment (which
  /// may carry `state` or a code), for ``Code/loginDidNotComplete``.
  public let pageURL: URL?
  /// That page's title.
  public let pageTitle: String?

  init(
    _ code: Code, _ message: String, providerError: String? = nil, pageURL: URL? = nil,
    pageTitle: String? = nil
  ) {
    self.code = code
    self.message = message
    self.providerError = providerError
    var components = pageURL.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
    components?.query = nil
    components?.fragment = nil
    self.pageURL = components?.url
    self.pageTitle = pageTitle
  }

  public var description: String {
    var text = "\(code): \(message)"
    if let pageURL {
      text += " (at \(pageURL.absoluteString)" + (pageTitle.map { ", \"\($0)\"" } ?? "") + ")"
    }
    return text
  }
}
