import Foundation
import WebsiteDataStore

/// A successful token response (RFC 6749 §5.1), with its ID token
/// validated when there is one. Tokens stay in wiped
/// ``WebsiteDataStore/SecretBytes``; the description shows none.
public struct OAuthTokenResponse: Sendable, CustomStringConvertible {
  /// `access_token`.
  public let accessToken: SecretBytes
  /// `token_type` (`Bearer`).
  public let tokenType: String
  /// `expires_in`, in seconds.
  public let expiresIn: Int?
  /// `refresh_token`, for ``WebAuthenticationSession/refresh(_:scopes:)``.
  public let refreshToken: SecretBytes?
  /// `scope`, when the provider granted other scopes than asked (§5.1).
  public let scopes: [String]?
  /// `id_token`, validated (OpenID Connect Core §3.1.3.7).
  public let idToken: OAuthIDToken?
  /// The response body as the provider sent it (a JSON object), for a
  /// program that passes it on.
  public let json: SecretBytes

  /// The fields of a §5.1 response body; the ID token is checked by the
  /// caller.
  init(body: [UInt8], object: [String: Any], idToken: OAuthIDToken?) throws(OAuthError) {
    guard var access = (object["access_token"] as? String).map({ Array($0.utf8) }), !access.isEmpty,
      let tokenType = object["token_type"] as? String
    else {
      throw OAuthError(
        .tokenRequestFailed, "the token response has no access_token or token_type (RFC 6749 §5.1)")
    }
    accessToken = SecretBytes(consuming: &access)
    self.tokenType = tokenType
    expiresIn = (object["expires_in"] as? NSNumber)?.intValue
    refreshToken = (object["refresh_token"] as? String).map { token in
      var bytes = Array(token.utf8)
      return SecretBytes(consuming: &bytes)
    }
    scopes = (object["scope"] as? String).map { $0.split(separator: " ").map(String.init) }
    self.idToken = idToken
    var copy = body
    json = SecretBytes(consuming: &copy)
  }

  public var description: String {
    "OAuthTokenResponse(\(tokenType), expires in: \(expiresIn.map(String.init) ?? "?"), refresh token: \(refreshToken != nil), ID token: \(idToken.map(String.init(describing:)) ?? "none"))"
  }
}
