import Foundation
import WebsiteDataStore

/// An OAuth client as the authorization server registered it: its
/// identifier, its redirect URI, and how it authenticates at the token
/// endpoint (RFC 6749 §2).
public struct OAuthClient: Sendable {
  /// How the client authenticates at the token endpoint.
  public enum Authentication: Sendable {
    /// A public client (RFC 6749 §2.1, a native app; RFC 8252 §8.4): it
    /// sends `client_id` only, and PKCE protects the code.
    case none
    /// `client_secret_basic`: HTTP Basic with the form-encoded identifier
    /// and secret (RFC 6749 §2.3.1).
    case clientSecretBasic(SecretBytes)
    /// `client_secret_post`: `client_id` and `client_secret` in the body
    /// (RFC 6749 §2.3.1, which discourages it; some providers require it).
    case clientSecretPost(SecretBytes)
  }

  /// `client_id`.
  public let id: String
  /// The registered redirect URI: https, a custom scheme (RFC 8252 §7.1)
  /// or a loopback http URI (§7.3).
  public let redirectURI: URL
  /// Its token-endpoint authentication.
  public let authentication: Authentication

  /// - Throws: ``OAuthError`` `.insecureEndpoint` for a plain-http redirect
  ///   URI off loopback (RFC 8252 §8.3).
  public init(id: String, redirectURI: URL, authentication: Authentication = .none)
    throws(OAuthError)
  {
    let scheme = redirectURI.scheme?.lowercased()
    if scheme == "http" || scheme == "https" {
      try OAuthServerMetadata.checkTransport(of: redirectURI, role: "redirect URI")
    } else if scheme == nil {
      throw OAuthError(.invalidRequest, "the redirect URI has no scheme")
    }
    self.id = id
    self.redirectURI = redirectURI
    self.authentication = authentication
  }

  /// Whether `url` is the redirect URI: the same scheme, host, port and path
  /// (RFC 6749 §3.1.2.3's simple string comparison, as RFC 8252 §7 wants,
  /// without the query the response adds).
  func isRedirectURI(_ url: URL) -> Bool {
    // URLComponents' path as written (URL.path drops a trailing slash).
    let path = { (url: URL) in
      URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath
    }
    return sharesOrigin(with: url) && path(url) == path(redirectURI)
  }

  /// Whether `url` has the redirect URI's scheme, host and port.
  func sharesOrigin(with url: URL) -> Bool {
    url.scheme?.lowercased() == redirectURI.scheme?.lowercased()
      && url.host?.lowercased() == redirectURI.host?.lowercased()
      && Self.port(of: url) == Self.port(of: redirectURI)
  }

  private static func port(of url: URL) -> Int? {
    url.port ?? ["http": 80, "https": 443][url.scheme?.lowercased() ?? ""]
  }

  /// The client's token-request fields and headers (RFC 6749 §2.3.1, §3.2.1).
  func authenticate(_ fields: inout [HTMLForm.Entry], _ headers: inout [HTTPHeader]) {
    switch authentication {
    case .none:
      fields.append(.string("client_id", .text(id)))
    case .clientSecretPost(let secret):
      fields.append(.string("client_id", .text(id)))
      fields.append(.string("client_secret", .secret(secret)))
    case .clientSecretBasic(let secret):
      let encoder = HTMLFormEncoder(encoding: .utf8)
      let password = secret.withUnsafeBytes {
        encoder.urlEncoded(String(decoding: $0, as: UTF8.self))
      }
      let credentials = Data((encoder.urlEncoded(id) + ":" + password).utf8).base64EncodedString()
      headers.append(HTTPHeader("Authorization", "Basic " + credentials))
    }
  }
}
