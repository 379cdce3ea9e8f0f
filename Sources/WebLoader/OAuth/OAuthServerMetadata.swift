import Foundation

/// An authorization server's endpoints and capabilities, as OpenID Connect
/// Discovery 1.0 §3 and RFC 8414 §2 describe them, fetched with
/// ``discover(issuer:using:)`` or given explicitly.
public struct OAuthServerMetadata: Sendable, Hashable, Decodable {
  /// The issuer identifier (an https URL without query or fragment).
  public let issuer: URL
  /// Where the user agent is sent to log in and consent (RFC 6749 §3.1).
  public let authorizationEndpoint: URL
  /// Where codes and refresh tokens are exchanged (RFC 6749 §3.2).
  public let tokenEndpoint: URL
  /// The provider's signing keys (a JWK Set, RFC 7517 §5), for ID tokens.
  public let jwksURI: URL?
  /// `code_challenge_methods_supported` (RFC 8414 §2).
  public let codeChallengeMethods: [String]?
  /// `authorization_response_iss_parameter_supported` (RFC 9207 §3): the
  /// provider puts `iss` in its authorization responses.
  public let returnsIssuerInResponses: Bool?

  enum CodingKeys: String, CodingKey {
    case issuer
    case authorizationEndpoint = "authorization_endpoint"
    case tokenEndpoint = "token_endpoint"
    case jwksURI = "jwks_uri"
    case codeChallengeMethods = "code_challenge_methods_supported"
    case returnsIssuerInResponses = "authorization_response_iss_parameter_supported"
  }

  /// Metadata given explicitly, for a provider without discovery.
  ///
  /// - Throws: ``OAuthError`` `.insecureEndpoint` for a plain-http URL on a
  ///   host that is not loopback.
  public init(
    issuer: URL, authorizationEndpoint: URL, tokenEndpoint: URL, jwksURI: URL? = nil,
    codeChallengeMethods: [String]? = nil, returnsIssuerInResponses: Bool? = nil
  ) throws(OAuthError) {
    self.issuer = issuer
    self.authorizationEndpoint = authorizationEndpoint
    self.tokenEndpoint = tokenEndpoint
    self.jwksURI = jwksURI
    self.codeChallengeMethods = codeChallengeMethods
    self.returnsIssuerInResponses = returnsIssuerInResponses
    try checkTransport()
  }

  /// Fetches the metadata of `issuer` through `session` (its store, TLS
  /// settings and resolve overrides): OpenID Connect Discovery's
  /// `issuer/.well-known/openid-configuration` first (§4.1), else RFC
  /// 8414's `/.well-known/oauth-authorization-server` inserted before the
  /// issuer's path (§3.1). The document must name `issuer` exactly
  /// (Discovery §4.3, RFC 8414 §3.3).
  ///
  /// - Throws: ``OAuthError`` `.discoveryFailed` (neither answered with a
  ///   metadata document), `.issuerMismatch`, `.insecureEndpoint`.
  public static func discover(issuer: URL, using session: WebLoaderSession) async throws(OAuthError)
    -> OAuthServerMetadata
  {
    try checkTransport(of: issuer, role: "issuer")
    let base =
      issuer.absoluteString.hasSuffix("/")
      ? String(issuer.absoluteString.dropLast()) : issuer.absoluteString
    var candidates = [base + "/.well-known/openid-configuration"]
    if var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false) {
      let path = components.path == "/" ? "" : components.path
      components.path = "/.well-known/oauth-authorization-server" + path
      if let url = components.string { candidates.append(url) }
    }
    var lastProblem = "no metadata document"
    for candidate in candidates {
      let response: LoadResponse
      do {
        response = try await session.load(
          LoadRequest(
            url: try session.store.url(candidate),
            headers: [HTTPHeader("Accept", "application/json")]))
      } catch {
        lastProblem = "the metadata request failed (\(error))"
        continue
      }
      guard response.status == 200 else {
        lastProblem = "the metadata request answered \(response.status)"
        continue
      }
      let metadata: OAuthServerMetadata
      do {
        metadata = try JSONDecoder().decode(OAuthServerMetadata.self, from: Data(response.body))
      } catch {
        throw OAuthError(.discoveryFailed, "the metadata at \(candidate) is not valid")
      }
      guard metadata.issuer.absoluteString == issuer.absoluteString else {
        throw OAuthError(
          .issuerMismatch,
          "the metadata names the issuer \(metadata.issuer.absoluteString), not \(issuer.absoluteString)"
        )
      }
      try metadata.checkTransport()
      return metadata
    }
    throw OAuthError(.discoveryFailed, "no metadata for \(issuer.absoluteString): \(lastProblem)")
  }

  /// Every endpoint over https, or plain http on loopback only.
  private func checkTransport() throws(OAuthError) {
    try Self.checkTransport(of: issuer, role: "issuer")
    try Self.checkTransport(of: authorizationEndpoint, role: "authorization endpoint")
    try Self.checkTransport(of: tokenEndpoint, role: "token endpoint")
    if let jwksURI { try Self.checkTransport(of: jwksURI, role: "JWK Set") }
  }

  /// https, or http to a loopback host (RFC 8252 §8.3: `127.0.0.1`, `[::1]`,
  /// `localhost`).
  static func checkTransport(of url: URL, role: String) throws(OAuthError) {
    switch url.scheme?.lowercased() {
    case "https": return
    case "http" where isLoopback(url): return
    default:
      throw OAuthError(
        .insecureEndpoint,
        "the \(role) \(url.host ?? "(no host)") is not https (only loopback may be http)")
    }
  }

  /// Whether a URL's host is a loopback address or `localhost`.
  static func isLoopback(_ url: URL) -> Bool {
    let host = (url.host ?? "").lowercased().trimmingCharacters(
      in: CharacterSet(charactersIn: "[]"))
    if host == "localhost" || host == "::1" { return true }
    let octets = host.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
    return octets.count == 4 && octets.allSatisfy { $0 != nil } && octets[0] == 127
  }
}
