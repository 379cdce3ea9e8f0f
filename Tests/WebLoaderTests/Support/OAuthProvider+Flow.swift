import Foundation
import LoopbackTestServer
import WebLoader
import WebsiteDataStore

extension OAuthProvider {
  /// Page settings for the provider: the test server's (its CA, its
  /// hosts) with the provider's port resolved to 127.0.0.1 too; no store,
  /// so the flow makes its own non-persistent one.
  func pageConfiguration() -> WebPage.Configuration {
    var transport = server.configuration(userAgent: nil)
    transport.resolveOverrides.append(
      ResolveOverride(host: Self.host, port: port, address: "127.0.0.1"))
    return WebPage.Configuration(transport: transport)
  }

  /// A flow for one of the provider's clients, discovering the provider.
  @MainActor func session(
    client id: String, redirectURI: String = "https://app.test/callback",
    authentication: OAuthClient.Authentication = .none,
    scopes: [String] = ["openid", "profile", "email"],
    driver: OAuthLoginDriver = OAuthProvider.aliceConsents
  ) throws -> WebAuthenticationSession {
    WebAuthenticationSession(
      provider: .issuer(issuer),
      client: try OAuthClient(
        id: id, redirectURI: URL(string: redirectURI)!, authentication: authentication),
      scopes: scopes, loginDriver: driver, configuration: pageConfiguration())
  }

  /// Alice's user name and password, and the consent page's Authorize.
  static let aliceConsents = OAuthLoginDriver.fields(
    aliceFields.merging(["allow": "Authorize"]) { $1 })

  /// Alice's user name and password.
  static var aliceFields: [String: HTMLFormValue] {
    ["username": .text(user), "password": .secret(copying: password)]
  }

  /// A secret holding `text`.
  static func secret(_ text: String) -> SecretBytes {
    var bytes = Array(text.utf8)
    return SecretBytes(consuming: &bytes)
  }
}
