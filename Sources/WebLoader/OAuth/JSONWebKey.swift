internal import COpenSSL
import Foundation

/// A public signing key of a JWK Set (RFC 7517): RSA (`kty` `RSA`, `n`,
/// `e`; RFC 7518 §6.3, at least 2048 bits) or P-256 (`kty` `EC`, `crv`
/// `P-256`, `x`, `y`; §6.2, the point checked to be on the curve), held as
/// an OpenSSL `EVP_PKEY`.
///
/// `@unchecked Sendable`: the key is created in `init`, only read
/// afterwards (`EVP_DigestVerify` does not change it), and freed in `deinit`.
public final class JSONWebKey: @unchecked Sendable {
  /// The key's type: `RSA` or `EC`.
  public let keyType: String
  /// `kid`, which a JWS header names to choose the key.
  public let keyID: String?
  /// `alg`, when the set restricts the key to one algorithm.
  public let algorithm: String?
  /// `use` (`sig` for signing keys).
  public let use: String?
  let key: OpaquePointer

  /// The key a JWK's JSON object describes; nil for a key that is not a
  /// usable RSA or P-256 public key (other types and curves are skipped).
  init?(_ object: [String: Any]) {
    guard let type = object["kty"] as? String else { return nil }
    let bytes = { (name: String) in (object[name] as? String).flatMap(Base64URL.decode) }
    var key: OpaquePointer?
    switch type {
    case "RSA":
      guard let n = bytes("n"), let e = bytes("e"), !n.isEmpty, !e.isEmpty else { return nil }
      key = websitedata_rsa_public_key(n, n.count, e, e.count)
      if let made = key, websitedata_key_bits(made) < 2048 {
        EVP_PKEY_free(made)
        key = nil
      }
    case "EC":
      guard object["crv"] as? String == "P-256", let x = bytes("x"), let y = bytes("y"),
        x.count == 32, y.count == 32
      else { return nil }
      key = websitedata_p256_public_key(x, y)
    default:
      return nil
    }
    guard let key else { return nil }
    self.key = key
    keyType = type
    keyID = object["kid"] as? String
    algorithm = object["alg"] as? String
    use = object["use"] as? String
  }

  deinit { EVP_PKEY_free(key) }

  /// The usable keys of a JWK Set document (`{"keys": [...]}`, RFC 7517 §5).
  ///
  /// - Throws: ``OAuthError`` `.badSignature` when it is not a JWK Set.
  public static func keySet(from json: [UInt8]) throws(OAuthError) -> [JSONWebKey] {
    guard let document = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
      let keys = document["keys"] as? [[String: Any]]
    else { throw OAuthError(.badSignature, "the provider's JWK Set is not a JSON key set") }
    return keys.compactMap(JSONWebKey.init)
  }

  /// Whether `signature` signs `input` under this key with `algorithm`
  /// (RS256: RSASSA-PKCS1-v1_5 with SHA-256; ES256: ECDSA P-256 SHA-256,
  /// the signature as r || s, RFC 7518 §3.3–3.4).
  func verifies(_ signature: [UInt8], of input: [UInt8], algorithm: String) -> Bool {
    switch (algorithm, keyType) {
    case ("RS256", "RSA"):
      return websitedata_verify_sha256(key, input, input.count, signature, signature.count) == 1
    case ("ES256", "EC"):
      guard signature.count == 64 else { return false }
      var der = [UInt8](repeating: 0, count: 80)
      let length = websitedata_ecdsa_p256_der(signature, &der, Int32(der.count))
      guard length > 0 else { return false }
      return websitedata_verify_sha256(key, input, input.count, der, Int(length)) == 1
    default:
      return false
    }
  }
}
