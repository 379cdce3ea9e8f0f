import Foundation
import WebsiteDataStore

/// A validated OpenID Connect ID token (OpenID Connect Core §2): its
/// signature checked against the provider's JWK Set, and its claims as
/// §3.1.3.7 requires.
public struct OAuthIDToken: Sendable, CustomStringConvertible {
  /// `iss`, equal to the provider's issuer.
  public let issuer: String
  /// `sub`: the user at the provider.
  public let subject: String
  /// `aud`: the client and any other audience.
  public let audiences: [String]
  /// `exp` and `iat`.
  public let expiresAt: Date
  public let issuedAt: Date
  /// `nonce`, equal to the request's when it sent one.
  public let nonce: String?
  /// The claims as JSON (the JWS payload): `email`, `name` and the rest.
  public let claimsJSON: [UInt8]
  /// The token as received (compact JWS), for `id_token_hint` and the like.
  public let compact: SecretBytes

  /// How far the clocks of the client and the provider may disagree.
  static let leeway: TimeInterval = 300

  /// Verifies `compact`'s signature with `keys` and checks, per OpenID
  /// Connect Core §3.1.3.7: `iss` is `issuer` exactly (step 2); `aud`
  /// contains `clientID` (step 3) and, with several audiences, `azp` is
  /// the client (steps 4–5); `exp` is not past (step 9) and `iat` not in
  /// the future (step 10), within ``leeway``; `nonce` is `expectedNonce`
  /// when one was sent (step 11).
  ///
  /// - Throws: ``OAuthError`` `.badSignature`, `.invalidIDToken`,
  ///   `.nonceMismatch`.
  init(
    verifying compact: String, keys: [JSONWebKey], issuer: URL, clientID: String,
    expectedNonce: String?, now: Date = Date()
  ) throws(OAuthError) {
    let jws = try JSONWebSignature(verifying: compact, keys: keys)
    guard let claims = try? JSONSerialization.jsonObject(with: Data(jws.payload)) as? [String: Any]
    else { throw OAuthError(.invalidIDToken, "the ID token's payload is not a JSON object") }
    guard let iss = claims["iss"] as? String, iss == issuer.absoluteString else {
      throw OAuthError(.issuerMismatch, "the ID token was issued by another issuer")
    }
    guard let subject = claims["sub"] as? String, !subject.isEmpty else {
      throw OAuthError(.invalidIDToken, "the ID token has no subject")
    }
    let audiences = (claims["aud"] as? [String]) ?? (claims["aud"] as? String).map { [$0] } ?? []
    guard audiences.contains(clientID) else {
      throw OAuthError(.invalidIDToken, "the ID token is not meant for this client")
    }
    if let party = claims["azp"] as? String ?? (audiences.count > 1 ? "" : nil),
      party != clientID
    {
      throw OAuthError(.invalidIDToken, "the ID token's authorized party is another client")
    }
    guard let exp = (claims["exp"] as? NSNumber)?.doubleValue,
      let iat = (claims["iat"] as? NSNumber)?.doubleValue
    else { throw OAuthError(.invalidIDToken, "the ID token has no exp or iat") }
    guard exp > now.timeIntervalSince1970 - Self.leeway else {
      throw OAuthError(.invalidIDToken, "the ID token has expired")
    }
    guard iat < now.timeIntervalSince1970 + Self.leeway else {
      throw OAuthError(.invalidIDToken, "the ID token was issued in the future")
    }
    let nonce = claims["nonce"] as? String
    if let expectedNonce, nonce != expectedNonce {
      throw OAuthError(.nonceMismatch, "the ID token's nonce is not the one the request sent")
    }
    self.issuer = iss
    self.subject = subject
    self.audiences = audiences
    expiresAt = Date(timeIntervalSince1970: exp)
    issuedAt = Date(timeIntervalSince1970: iat)
    self.nonce = nonce
    claimsJSON = jws.payload
    var bytes = Array(compact.utf8)
    self.compact = SecretBytes(consuming: &bytes)
  }

  /// A string claim of the token (`email`, `name`...).
  public func string(_ claim: String) -> String? {
    (try? JSONSerialization.jsonObject(with: Data(claimsJSON)) as? [String: Any])?[claim] as? String
  }

  public var description: String {
    "OAuthIDToken(iss: \(issuer), aud: \(audiences), exp: \(expiresAt))"
  }
}
