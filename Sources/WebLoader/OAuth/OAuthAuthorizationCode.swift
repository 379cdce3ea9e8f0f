import WebsiteDataStore

/// An authorization code caught at the redirect URI and checked (`state`,
/// `iss`), with the request it answers, ready to be exchanged once at the
/// token endpoint (RFC 6749 §4.1.3) with the request's PKCE verifier.
public struct OAuthAuthorizationCode: Sendable, CustomStringConvertible {
  /// The code (secret: it is a one-time credential).
  public let code: SecretBytes
  /// The request the code answers (its verifier and nonce).
  public let request: OAuthAuthorizationRequest

  public var description: String {
    "OAuthAuthorizationCode(<redacted>, client: \(request.clientID))"
  }
}
