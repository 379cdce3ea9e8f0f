import Foundation
import LoopbackTestServer
import ProcessHarness
import TestScratch
import Testing

@testable import WebLoader

/// ID-token signatures (RFC 7515 compact JWS, RFC 7518 §3.3–3.4) checked
/// against keys and signatures the `openssl` tool made: RS256 and ES256
/// verify, every other algorithm and every tampered byte is refused.
@Suite struct JSONWebSignatureTests {
  /// Keys made by `openssl genpkey`, their JWKs, and signing with
  /// `openssl dgst -sha256 -sign`.
  struct SigningKeys {
    let folder: TemporaryFolder

    init() async throws {
      folder = try TemporaryFolder("jws-keys")
      try await openssl(
        ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], "rsa.pem")
      try await openssl(
        ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], "rsa2.pem")
      try await openssl(
        ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024"], "short.pem")
      try await openssl(
        ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], "ec.pem")
    }

    private func openssl(_ arguments: [String], _ output: String) async throws {
      _ = try await run(arguments + ["-out", folder.file(output)])
    }

    private func run(_ arguments: [String], stdin: [UInt8] = []) async throws -> [UInt8] {
      let outcome = try await ChildProcess.run(
        "/usr/bin/env", arguments: ["openssl"] + arguments, stdin: stdin)
      guard outcome.status == .exited(0) else {
        throw TestSetupError(description: "openssl \(arguments[0]): \(outcome.stderrText)")
      }
      return outcome.stdout
    }

    /// The RSA key's JWK (RFC 7518 §6.3.1): `n` from `openssl rsa -modulus`.
    func rsaJWK(_ file: String, kid: String?) async throws -> [String: Any] {
      let text = String(
        decoding: try await run(["rsa", "-in", folder.file(file), "-noout", "-modulus"]),
        as: UTF8.self)
      let hex = text.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(
        of: "Modulus=", with: "")
      var modulus: [UInt8] = []
      var index = hex.startIndex
      while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        modulus.append(UInt8(hex[index..<next], radix: 16)!)
        index = next
      }
      var jwk: [String: Any] = ["kty": "RSA", "n": Base64URL.encode(modulus), "e": "AQAB"]
      jwk["kid"] = kid
      return jwk
    }

    /// The P-256 key's JWK (§6.2.1): the uncompressed point ends the
    /// SubjectPublicKeyInfo DER.
    func ecJWK(kid: String?) async throws -> [String: Any] {
      let der = try await run(["pkey", "-in", folder.file("ec.pem"), "-pubout", "-outform", "DER"])
      let point = Array(der.suffix(65))
      var jwk: [String: Any] = [
        "kty": "EC", "crv": "P-256", "x": Base64URL.encode(Array(point[1...32])),
        "y": Base64URL.encode(Array(point[33...64])),
      ]
      jwk["kid"] = kid
      return jwk
    }

    /// A compact JWS of `claims` signed with `file`'s key; ES256's DER
    /// signature is turned into r || s (RFC 7518 §3.4).
    func token(_ header: [String: Any], _ claims: String, signedWith file: String) async throws
      -> String
    {
      let head = Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: header)))
      let input = head + "." + Base64URL.encode(Array(claims.utf8))
      var signature = try await run(
        ["dgst", "-sha256", "-sign", folder.file(file)], stdin: Array(input.utf8))
      if file == "ec.pem" { signature = Self.rawECDSA(signature) }
      return input + "." + Base64URL.encode(signature)
    }

    /// r || s, 32 bytes each, from an ECDSA-Sig-Value DER sequence.
    static func rawECDSA(_ der: [UInt8]) -> [UInt8] {
      var offset = 2  // SEQUENCE, short length
      func integer() -> [UInt8] {
        let length = Int(der[offset + 1])
        let value = Array(der[(offset + 2)..<(offset + 2 + length)]).drop { $0 == 0 }
        offset += 2 + length
        return [UInt8](repeating: 0, count: 32 - value.count) + value
      }
      return integer() + integer()
    }
  }

  static func keySet(_ keys: [[String: Any]]) throws -> [JSONWebKey] {
    try JSONWebKey.keySet(from: Array(JSONSerialization.data(withJSONObject: ["keys": keys])))
  }

  static let claims = #"{"iss":"https://id.test/o","sub":"alice"}"#

  static func refusal(_ token: String, _ keys: [JSONWebKey]) -> OAuthError? {
    do {
      _ = try JSONWebSignature(verifying: token, keys: keys)
      return nil
    } catch {
      return error
    }
  }

  @Test func rs256AndES256VerifyWithTheKeyTheHeaderNames() async throws {
    let signing = try await SigningKeys()
    defer { signing.folder.remove() }
    let keys = try Self.keySet([
      try await signing.rsaJWK("rsa2.pem", kid: "other"),
      try await signing.rsaJWK("rsa.pem", kid: "r1"), try await signing.ecJWK(kid: "e1"),
    ])
    #expect(keys.count == 3)
    let rsa = try await signing.token(
      ["alg": "RS256", "kid": "r1"], Self.claims, signedWith: "rsa.pem")
    let verified = try JSONWebSignature(verifying: rsa, keys: keys)
    #expect(verified.algorithm == "RS256")
    #expect(verified.keyID == "r1")
    #expect(String(decoding: verified.payload, as: UTF8.self) == Self.claims)
    let ec = try await signing.token(
      ["alg": "ES256", "kid": "e1"], Self.claims, signedWith: "ec.pem")
    #expect(try JSONWebSignature(verifying: ec, keys: keys).algorithm == "ES256")
    // Without a kid, the only key of the right type is used.
    let ecOnly = try Self.keySet([try await signing.ecJWK(kid: nil)])
    let bare = try await signing.token(["alg": "ES256"], Self.claims, signedWith: "ec.pem")
    #expect(try JSONWebSignature(verifying: bare, keys: ecOnly).keyID == nil)
  }

  @Test func aTamperedTokenOrAnotherKeyIsRefused() async throws {
    let signing = try await SigningKeys()
    defer { signing.folder.remove() }
    let keys = try Self.keySet([
      try await signing.rsaJWK("rsa.pem", kid: "r1"),
      try await signing.rsaJWK("rsa2.pem", kid: "r2"),
    ])
    let token = try await signing.token(
      ["alg": "RS256", "kid": "r1"], Self.claims, signedWith: "rsa.pem")
    let parts = token.split(separator: ".").map(String.init)
    let otherClaims = Base64URL.encode(Array(#"{"iss":"https://id.test/o","sub":"mallory"}"#.utf8))
    var signature = Base64URL.decode(parts[2])!
    signature[17] ^= 1
    let tampered = [
      parts[0] + "." + otherClaims + "." + parts[2],
      parts[0] + "." + parts[1] + "." + Base64URL.encode(signature),
      // Signed by r1 but naming r2.
      try await signing.token(["alg": "RS256", "kid": "r2"], Self.claims, signedWith: "rsa.pem"),
      // A kid the set does not have.
      try await signing.token(["alg": "RS256", "kid": "r9"], Self.claims, signedWith: "rsa.pem"),
      // No kid, and two keys fit.
      try await signing.token(["alg": "RS256"], Self.claims, signedWith: "rsa.pem"),
      // RS256 signature under an ES256 header.
      try await signing.token(["alg": "ES256", "kid": "r1"], Self.claims, signedWith: "rsa.pem"),
      "not a token", parts[0] + "." + parts[1], parts[0] + "." + parts[1] + ".%%%",
    ]
    for token in tampered {
      let error = try #require(Self.refusal(token, keys))
      #expect(error.code == .badSignature)
      #expect(!error.message.contains(parts[1]) && !error.message.contains(parts[2]))
    }
  }

  @Test func algorithmsOtherThanRS256AndES256AreRefused() async throws {
    let signing = try await SigningKeys()
    defer { signing.folder.remove() }
    let jwk = try await signing.rsaJWK("rsa.pem", kid: "r1")
    let keys = try Self.keySet([jwk])
    let claims = Base64URL.encode(Array(Self.claims.utf8))
    func header(_ object: [String: Any]) throws -> String {
      Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: object)))
    }
    // "none" with no signature, and HS256 keyed with the RSA modulus (the
    // algorithm-confusion attack), and a critical extension.
    let unsigned = try header(["alg": "none"]) + "." + claims + "."
    let hmac = try header(["alg": "HS256", "kid": "r1"]) + "." + claims + ".c2lnbmF0dXJl"
    let critical = try await signing.token(
      ["alg": "RS256", "kid": "r1", "crit": ["exp"], "exp": 1], Self.claims, signedWith: "rsa.pem")
    for token in [unsigned, hmac, critical] {
      #expect(Self.refusal(token, keys)?.code == .badSignature)
    }
    // A key restricted to ES256 does not verify RS256.
    var restricted = jwk
    restricted["alg"] = "ES256"
    let good = try await signing.token(
      ["alg": "RS256", "kid": "r1"], Self.claims, signedWith: "rsa.pem")
    #expect(Self.refusal(good, try Self.keySet([restricted]))?.code == .badSignature)
    #expect(Self.refusal(good, keys) == nil)
  }

  @Test func weakOrMalformedKeysAreLeftOutOfTheSet() async throws {
    let signing = try await SigningKeys()
    defer { signing.folder.remove() }
    var offCurve = try await signing.ecJWK(kid: "bad")
    offCurve["y"] = offCurve["x"]
    let keys = try Self.keySet([
      try await signing.rsaJWK("short.pem", kid: "short"), offCurve,
      ["kty": "oct", "k": "c2VjcmV0"], ["kty": "EC", "crv": "P-384", "x": "AA", "y": "AA"],
      ["kty": "RSA", "n": "!!", "e": "AQAB"], try await signing.ecJWK(kid: "good"),
    ])
    #expect(keys.map(\.keyID) == ["good"])
    for document in ["", "[]", #"{"keys": 3}"#, "{}"] {
      #expect(throws: OAuthError.self) { try JSONWebKey.keySet(from: Array(document.utf8)) }
    }
  }
}
