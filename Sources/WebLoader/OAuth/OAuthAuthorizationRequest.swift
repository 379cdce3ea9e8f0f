import Foundation

/// An authorization request of the authorization-code flow (RFC 6749
/// §4.1.1) with PKCE S256 (RFC 7636 §4.3), a fresh `state` (RFC 6749
/// §10.12) and, for OpenID Connect, a fresh `nonce` (OpenID Connect Core
/// §3.1.2.1): the URL to open, and what the flow must keep to check the
/// response.
public struct OAuthAuthorizationRequest: Sendable {
  /// The authorization endpoint with the request's parameters.
  public let url: URL
  /// The redirect URI the response must come back to.
  public let redirectURI: URL
  /// The `state` the response must carry back.
  public let state: String
  /// The `nonce` the ID token must carry, when `openid` is a scope.
  public let nonce: String?
  /// The PKCE pair; its verifier goes to the token request.
  public let pkce: PKCE
  /// The client.
  public let clientID: String
  /// The scopes asked.
  public let scopes: [String]

  /// Builds a request for `clientID` at `metadata`'s authorization endpoint.
  ///
  /// - Parameters:
  ///   - scopes: `scope` values; with `openid`, a `nonce` is sent.
  ///   - additionalParameters: more query parameters (`prompt`,
  ///     `login_hint`...); they cannot replace the ones above.
  /// - Throws: ``OAuthError`` `.insecureEndpoint` for a plain-http redirect
  ///   URI off loopback (RFC 8252 §8.3; custom schemes are fine, §7.1).
  public init(
    metadata: OAuthServerMetadata, clientID: String, redirectURI: URL, scopes: [String] = [],
    additionalParameters: [String: String] = [:]
  ) throws {
    if redirectURI.scheme?.lowercased() == "http" || redirectURI.scheme?.lowercased() == "https" {
      try OAuthServerMetadata.checkTransport(of: redirectURI, role: "redirect URI")
    }
    let state = String(decoding: try Base64URL.randomToken(), as: UTF8.self)
    let nonce =
      scopes.contains("openid") ? String(decoding: try Base64URL.randomToken(), as: UTF8.self) : nil
    let pkce = try PKCE.random()
    var items = [
      URLQueryItem(name: "response_type", value: "code"),
      URLQueryItem(name: "client_id", value: clientID),
      URLQueryItem(name: "redirect_uri", value: redirectURI.absoluteString),
      URLQueryItem(name: "state", value: state),
      URLQueryItem(name: "code_challenge", value: pkce.challenge),
      URLQueryItem(name: "code_challenge_method", value: pkce.method),
    ]
    if !scopes.isEmpty {
      items.append(URLQueryItem(name: "scope", value: scopes.joined(separator: " ")))
    }
    if let nonce { items.append(URLQueryItem(name: "nonce", value: nonce)) }
    let taken = Set(items.map(\.name))
    for (name, value) in additionalParameters.sorted(by: { $0.key < $1.key })
    where !taken.contains(name) {
      items.append(URLQueryItem(name: name, value: value))
    }
    guard
      var components = URLComponents(
        url: metadata.authorizationEndpoint, resolvingAgainstBaseURL: false)
    else { throw OAuthError(.invalidRequest, "the authorization endpoint is not a URL") }
    // The endpoint's own query is kept (RFC 6749 §3.1).
    components.queryItems = (components.queryItems ?? []) + items
    // `+` is literal in URLComponents' encoding; a space is %20, `+` must be %2B.
    components.percentEncodedQuery = components.percentEncodedQuery?
      .replacingOccurrences(of: "+", with: "%2B")
    guard let url = components.url else {
      throw OAuthError(.invalidRequest, "the authorization request cannot be encoded")
    }
    self.url = url
    self.redirectURI = redirectURI
    self.state = state
    self.nonce = nonce
    self.pkce = pkce
    self.clientID = clientID
    self.scopes = scopes
  }
}
