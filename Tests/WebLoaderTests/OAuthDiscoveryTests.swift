import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebsiteDataStore

@testable import WebLoader

/// Provider discovery (OpenID Connect Discovery §4, RFC 8414 §3) against
/// the loopback server over TLS, and the authorization request.
@Suite(.hangGuard) struct OAuthDiscoveryTests {
  let server: TestServer
  let session: WebLoaderSession

  init() async throws {
    server = try await TestServer.shared()
    session = try WebLoaderSession(
      store: .nonPersistent(), configuration: server.configuration())
  }

  func issuer(_ name: String, scheme: String = "https") -> URL {
    URL(string: server.origin(scheme, "a.test") + "/issuer/" + name)!
  }

  @Test func discoversOpenIDConnectMetadata() async throws {
    let metadata = try await OAuthServerMetadata.discover(issuer: issuer("oidc"), using: session)
    #expect(metadata.issuer == issuer("oidc"))
    #expect(metadata.tokenEndpoint.absoluteString == issuer("oidc").absoluteString + "/token")
    #expect(metadata.codeChallengeMethods == ["S256"])
    #expect(metadata.returnsIssuerInResponses == true)
  }

  @Test func fallsBackToRFC8414WhenThereIsNoOpenIDDocument() async throws {
    let metadata = try await OAuthServerMetadata.discover(issuer: issuer("rfc8414"), using: session)
    #expect(metadata.authorizationEndpoint.path == "/issuer/rfc8414/authorize")
  }

  @Test func refusesAnotherIssuerANonHTTPSIssuerAndNothingAtAll() async throws {
    await #expect {
      _ = try await OAuthServerMetadata.discover(issuer: issuer("liar"), using: session)
    } throws: { ($0 as? OAuthError)?.code == .issuerMismatch }
    await #expect {
      _ = try await OAuthServerMetadata.discover(
        issuer: issuer("oidc", scheme: "http"), using: session)
    } throws: { ($0 as? OAuthError)?.code == .insecureEndpoint }
    await #expect {
      _ = try await OAuthServerMetadata.discover(
        issuer: URL(string: server.origin("https", "a.test") + "/nothing")!, using: session)
    } throws: { ($0 as? OAuthError)?.code == .discoveryFailed }
  }

  @Test(arguments: [
    ("http://127.0.0.1:8080/cb", true), ("http://[::1]/cb", true), ("http://localhost/cb", true),
    ("http://127.evil.example/cb", false), ("http://example.com/cb", false),
    ("https://example.com/cb", true), ("com.example.app:/oauth2redirect", true),
  ])
  func redirectURIsArePlainHTTPOnLoopbackOnly(_ uri: String, _ accepted: Bool) throws {
    let metadata = try OAuthServerMetadata(
      issuer: URL(string: "https://idp.example")!,
      authorizationEndpoint: URL(string: "https://idp.example/authorize?tenant=1")!,
      tokenEndpoint: URL(string: "https://idp.example/token")!)
    let made = try? OAuthAuthorizationRequest(
      metadata: metadata, clientID: "app", redirectURI: URL(string: uri)!, scopes: ["openid"])
    #expect((made != nil) == accepted)
  }

  @Test func theAuthorizationRequestCarriesPKCEStateAndNonce() throws {
    let metadata = try OAuthServerMetadata(
      issuer: URL(string: "https://idp.example")!,
      authorizationEndpoint: URL(string: "https://idp.example/authorize?tenant=1")!,
      tokenEndpoint: URL(string: "https://idp.example/token")!)
    let request = try OAuthAuthorizationRequest(
      metadata: metadata, clientID: "my app", redirectURI: URL(string: "http://127.0.0.1:9/cb")!,
      scopes: ["openid", "profile"], additionalParameters: ["prompt": "login", "state": "forged"])
    let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    let query = Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
    #expect(query["tenant"] == "1")
    #expect(query["response_type"] == "code")
    #expect(query["client_id"] == "my app")
    #expect(query["redirect_uri"] == "http://127.0.0.1:9/cb")
    #expect(query["scope"] == "openid profile")
    #expect(query["state"] == request.state)
    #expect(query["nonce"] == request.nonce)
    #expect(query["code_challenge"] == request.pkce.challenge)
    #expect(query["code_challenge_method"] == "S256")
    #expect(query["prompt"] == "login")
    #expect(items.filter { $0.name == "state" }.count == 1)  // not replaced
    #expect(request.state.count == 43)
    // No nonce without openid.
    let plain = try OAuthAuthorizationRequest(
      metadata: metadata, clientID: "app", redirectURI: URL(string: "https://rp.example/cb")!)
    #expect(plain.nonce == nil)
  }
}
