import Foundation
import Testing
import WebsiteDataStore

@testable import WebLoader

/// ID-token claims (OpenID Connect Core §3.1.3.7), the authorization
/// response's checks (RFC 9207 §2.4, RFC 6749 §4.1.2) and the redirect URI
/// match (RFC 8252 §7), on tokens signed by keys the `openssl` tool made.
@Suite struct OAuthIDTokenTests {
  static let issuer = URL(string: "https://id.test/o")!
  static let now = Date(timeIntervalSince1970: 2_000_000_000)

  static func claims(_ changes: [String: Any?]) throws -> String {
    var claims: [String: Any] = [
      "iss": issuer.absoluteString, "sub": "alice", "aud": "app", "exp": 2_000_000_600,
      "iat": 2_000_000_000, "nonce": "n-1",
    ]
    for (name, value) in changes { claims[name] = value }
    return String(decoding: try JSONSerialization.data(withJSONObject: claims), as: UTF8.self)
  }

  @Test func theClaimsAreCheckedAsCoreSection3137Says() async throws {
    let signing = try await JSONWebSignatureTests.SigningKeys()
    defer { signing.folder.remove() }
    let keys = try JSONWebSignatureTests.keySet([try await signing.rsaJWK("rsa.pem", kid: "k")])
    func token(_ changes: [String: Any?]) async throws -> String {
      try await signing.token(
        ["alg": "RS256", "kid": "k"], try Self.claims(changes), signedWith: "rsa.pem")
    }
    func check(_ token: String, nonce: String? = "n-1") -> OAuthError.Code? {
      do {
        _ = try OAuthIDToken(
          verifying: token, keys: keys, issuer: Self.issuer, clientID: "app", expectedNonce: nonce,
          now: Self.now)
        return nil
      } catch {
        return error.code
      }
    }
    let valid = try OAuthIDToken(
      verifying: try await token([:]), keys: keys, issuer: Self.issuer, clientID: "app",
      expectedNonce: "n-1", now: Self.now)
    #expect(valid.subject == "alice" && valid.audiences == ["app"])
    #expect(valid.expiresAt == Date(timeIntervalSince1970: 2_000_000_600))
    let cases: [([String: Any?], OAuthError.Code?)] = [
      (["iss": "https://id.test/o/"], .issuerMismatch),
      (["aud": "other"], .invalidIDToken),
      (["aud": ["app", "other"]], .invalidIDToken),  // several audiences, no azp
      (["aud": ["app", "other"], "azp": "app"], nil),
      (["aud": ["app"], "azp": "other"], .invalidIDToken),
      (["exp": 2_000_000_000 - 301], .invalidIDToken),
      (["exp": 2_000_000_000 - 200], nil),  // within the leeway
      (["iat": 2_000_000_000 + 301], .invalidIDToken),
      (["exp": nil], .invalidIDToken),
      (["sub": nil], .invalidIDToken),
      (["nonce": "n-2"], .nonceMismatch),
      (["nonce": nil], .nonceMismatch),
    ]
    for (changes, expected) in cases {
      #expect(check(try await token(changes)) == expected, "\(changes)")
    }
    // Without an expected nonce (a refresh), any nonce is fine.
    #expect(check(try await token(["nonce": "n-2"]), nonce: nil) == nil)
  }

  static let request = try! OAuthAuthorizationRequest(
    metadata: try! OAuthServerMetadata(
      issuer: issuer, authorizationEndpoint: URL(string: "https://id.test/o/authorize")!,
      tokenEndpoint: URL(string: "https://id.test/o/token")!),
    clientID: "app", redirectURI: URL(string: "https://app.test/cb")!, scopes: ["openid"])

  @Test func theAuthorizationResponseIsCheckedInRFC9207Order() throws {
    let plain = try OAuthServerMetadata(
      issuer: Self.issuer, authorizationEndpoint: URL(string: "https://id.test/o/authorize")!,
      tokenEndpoint: URL(string: "https://id.test/o/token")!)
    let promising = try OAuthServerMetadata(
      issuer: Self.issuer, authorizationEndpoint: URL(string: "https://id.test/o/authorize")!,
      tokenEndpoint: URL(string: "https://id.test/o/token")!, returnsIssuerInResponses: true)
    let state = Self.request.state
    let iss =
      "iss=" + "https://id.test/o".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    func check(_ query: String, _ metadata: OAuthServerMetadata) -> OAuthError.Code? {
      let response = OAuthAuthorizationResponse(url: URL(string: "https://app.test/cb?" + query)!)
      do {
        _ = try response.code(for: Self.request, metadata: metadata)
        return nil
      } catch {
        return error.code
      }
    }
    #expect(check("code=c&state=\(state)", plain) == nil)
    #expect(check("code=c&state=\(state)&\(iss)", promising) == nil)
    #expect(check("code=c&state=\(state)", promising) == .issuerMismatch)
    #expect(check("code=c&state=\(state)&iss=https%3A%2F%2Fevil.test", plain) == .issuerMismatch)
    // iss before state, state before the error.
    #expect(
      check("error=access_denied&state=x&iss=https%3A%2F%2Fevil.test", plain) == .issuerMismatch)
    #expect(check("error=access_denied&state=x", plain) == .stateMismatch)
    #expect(check("error=access_denied", plain) == .stateMismatch)
    #expect(check("error=access_denied&state=\(state)", plain) == .accessDenied)
    #expect(check("error=invalid_scope&state=\(state)", plain) == .authorizationFailed)
    #expect(check("state=\(state)", plain) == .authorizationFailed)
    // A form_post body is read the same way.
    let body = OAuthAuthorizationResponse(body: Array("code=c+d&state=\(state)".utf8))
    #expect(Self.text(try body.code(for: Self.request, metadata: plain)) == "c d")
  }

  static func text(_ secret: SecretBytes) -> String {
    secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }

  @Test(arguments: [
    ("https://app.test/cb", "https://app.test/cb?code=1", true),
    ("https://app.test/cb", "https://APP.test:443/cb", true),
    ("https://app.test/cb", "https://app.test/cb/", false),
    ("https://app.test/cb", "https://app.test:8443/cb", false),
    ("https://app.test/cb", "http://app.test/cb", false),
    ("http://127.0.0.1:5000/cb", "http://127.0.0.1:5001/cb", false),
    ("com.example.app:/oauth/cb", "com.example.app:/oauth/cb?code=1", true),
    ("com.example.app:/oauth/cb", "com.example.other:/oauth/cb", false),
  ])
  func theRedirectURIMatchesExactly(_ registered: String, _ url: String, _ matches: Bool) throws {
    let client = try OAuthClient(id: "app", redirectURI: URL(string: registered)!)
    #expect(client.isRedirectURI(URL(string: url)!) == matches)
  }

  @Test func aPlainHTTPRedirectURIIsLoopbackOnly() {
    #expect(throws: OAuthError.self) {
      try OAuthClient(id: "app", redirectURI: URL(string: "http://app.test/cb")!)
    }
    #expect(throws: Never.self) {
      try OAuthClient(id: "app", redirectURI: URL(string: "http://[::1]:8080/cb")!)
    }
  }
}
