import Foundation

/// A JWS in compact serialization (RFC 7515 §7.1), such as an ID token:
/// header, payload and signature, verified against a JWK Set.
public struct JSONWebSignature: Sendable {
  /// The protected header's `alg` and `kid`.
  public let algorithm: String
  public let keyID: String?
  /// The payload, as bytes (for an ID token, the JSON claims).
  public let payload: [UInt8]

  /// Parses `compact` and verifies its signature with the key of `keys`
  /// its header names (`kid`), or the only key that fits when it names
  /// none (RFC 7515 §5.2). Only RS256 and ES256 are accepted: `none`, HMAC
  /// and every other algorithm are refused, whatever the header says.
  ///
  /// - Throws: ``OAuthError`` `.badSignature`; the message never holds the
  ///   token.
  public init(verifying compact: String, keys: [JSONWebKey]) throws(OAuthError) {
    let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let headerBytes = Base64URL.decode(String(parts[0])),
      let payload = Base64URL.decode(String(parts[1])),
      let signature = Base64URL.decode(String(parts[2])),
      let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
      let algorithm = header["alg"] as? String
    else { throw OAuthError(.badSignature, "the token is not a compact JWS") }
    guard algorithm == "RS256" || algorithm == "ES256" else {
      throw OAuthError(.badSignature, "the token's algorithm \(algorithm) is not RS256 or ES256")
    }
    guard header["crit"] == nil else {
      throw OAuthError(.badSignature, "the token has critical header parameters")
    }
    let keyID = header["kid"] as? String
    let keyType = algorithm == "RS256" ? "RSA" : "EC"
    let candidates = keys.filter { key in
      key.keyType == keyType && (key.algorithm == nil || key.algorithm == algorithm)
        && (key.use == nil || key.use == "sig") && (keyID == nil || key.keyID == keyID)
    }
    guard !candidates.isEmpty, keyID != nil || candidates.count == 1 else {
      throw OAuthError(.badSignature, "no key of the provider's set signs this token")
    }
    let input = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
    guard candidates.contains(where: { $0.verifies(signature, of: input, algorithm: algorithm) })
    else { throw OAuthError(.badSignature, "the token's signature does not verify") }
    self.algorithm = algorithm
    self.keyID = keyID
    self.payload = payload
  }
}

extension Base64URL {
  /// Base64url without padding, decoded; nil when it is not base64url.
  static func decode(_ text: String) -> [UInt8]? {
    guard
      text.utf8.allSatisfy({ byte in
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
          || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
          || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
          || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
      }), text.utf8.count % 4 != 1
    else { return nil }
    var standard = text.replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
    return Data(base64Encoded: standard).map(Array.init)
  }
}
