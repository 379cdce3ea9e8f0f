internal import COpenSSL
import Foundation
import WebsiteDataStore

/// Proof Key for Code Exchange with the `S256` method (RFC 7636): the
/// secret verifier an authorization-code flow keeps, and the challenge it
/// sends in the authorization request (§4.3) so that only it can redeem
/// the code (§4.5).
///
/// The verifier is secret: it stays in a wiped ``WebsiteDataStore/SecretBytes``
/// buffer and no description shows it.
public struct PKCE: Sendable, CustomStringConvertible {
  /// The code verifier (§4.1): 43 to 128 characters of `[A-Za-z0-9-._~]`,
  /// as ASCII bytes.
  public let verifier: SecretBytes
  /// `BASE64URL-ENCODE(SHA256(ASCII(code_verifier)))` (§4.2).
  public let challenge: String
  /// Always `S256` (§4.2; `plain` is not offered).
  public var method: String { "S256" }

  /// A fresh pair: the verifier is 32 random bytes (`RAND_bytes`) in
  /// base64url, 43 characters, as §4.1 recommends.
  public static func random() throws -> PKCE {
    try PKCE(verifierBytes: Base64URL.randomToken())
  }

  /// The pair for a given verifier (as in RFC 7636 Appendix B).
  ///
  /// - Throws: ``OAuthError`` `.invalidRequest` when the verifier is not
  ///   43–128 unreserved characters (§4.1).
  public init(verifier: SecretBytes) throws(OAuthError) {
    let valid = verifier.withUnsafeBytes { bytes in
      (43...128).contains(bytes.count)
        && bytes.allSatisfy { byte in
          (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || [UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~")]
              .contains(byte)
        }
    }
    guard valid else {
      throw OAuthError(.invalidRequest, "a PKCE verifier is 43 to 128 unreserved characters")
    }
    self.verifier = verifier
    challenge = Base64URL.encode(verifier.withUnsafeBytes { Self.sha256($0) })
  }

  private init(verifierBytes: [UInt8]) throws {
    var bytes = verifierBytes
    try self.init(verifier: SecretBytes(consuming: &bytes))
  }

  public var description: String { "PKCE(S256, challenge: \(challenge))" }

  /// SHA-256 through OpenSSL's `EVP_Digest`.
  static func sha256(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    digest.withUnsafeMutableBytes { output in
      _ = EVP_Digest(
        bytes.baseAddress, bytes.count, output.baseAddress?.assumingMemoryBound(to: UInt8.self),
        &length, EVP_sha256(), nil)
    }
    return digest
  }
}

/// Base64url without padding (RFC 4648 §5, as RFC 7636 and JOSE use it).
enum Base64URL {
  static func encode(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// 32 random bytes (`RAND_bytes`), base64url: 43 ASCII characters (the
  /// PKCE verifier, `state`, `nonce`). The short-lived copies made while
  /// encoding are not wiped (what ``SecretBytes`` cannot do for copies).
  static func randomToken() throws -> [UInt8] {
    let random = try SecretBytes.random(count: 32)
    return Array(encode(random.withUnsafeBytes { Array($0) }).utf8)
  }
}
