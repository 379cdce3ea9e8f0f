import Foundation
import WebsiteData

/// The options both `oauth` subcommands take: the provider, the client and
/// its secret, and the transport (`--resolve`, `--cacert`, `--timeout`,
/// `--proxy`, `--user-agent`, as `fetch` reads them).
struct OAuthOptions {
  static let options: [Arguments.Option] = [
    .value("issuer"), .value("client-id"), .flag("client-secret-stdin"), .value("client-auth"),
    .value("redirect-uri"), .value("scope"), .flag("json"), .value("user-agent"),
    .value("resolve"), .value("timeout"), .value("cacert"), .value("proxy"),
  ]

  static let help = """
      --issuer <url>          The provider's issuer (https; http on loopback
                              only): its endpoints are discovered (OpenID Connect
                              Discovery, then RFC 8414).
      --client-id <id>        The client's identifier.
      --client-secret-stdin   A confidential client: read its secret from the
                              first line of stdin (never from the command line).
      --client-auth basic|post
                              How the secret is sent: client_secret_basic (the
                              default) or client_secret_post.
      --redirect-uri <uri>    The registered redirect URI (default
                              http://127.0.0.1/callback): https, a custom scheme
                              (com.example.app:/callback) or loopback http. It is
                              caught before it is requested: nothing listens.
      --scope <scope>         A scope to ask (repeatable; default openid).
      --json                  Print a JSON document: the token response, the ID
                              token's claims, the issuer and client.
      --resolve <host:port:address>, --cacert <file>, --timeout <seconds>,
      --proxy <url>, --user-agent <ua>
                              As for 'sitedata fetch'.
    """

  let issuer: URL
  let client: OAuthClient
  let scopes: [String]
  let json: Bool
  let transport: LoadConfiguration

  /// Reads the options; the client secret comes first on stdin.
  init<C: Command>(_ parsed: Arguments, of command: C.Type) throws(CLIError) {
    guard let issuerText = parsed.values["issuer"], let issuer = URL(string: issuerText),
      ["http", "https"].contains(issuer.scheme?.lowercased() ?? ""), issuer.host != nil
    else { throw .usage("--issuer takes the provider's https URL", of: command) }
    guard let clientID = parsed.values["client-id"], !clientID.isEmpty else {
      throw .usage("--client-id is required", of: command)
    }
    let redirectText = parsed.values["redirect-uri"] ?? "http://127.0.0.1/callback"
    guard let redirectURI = URL(string: redirectText), redirectURI.scheme != nil else {
      throw .usage("--redirect-uri takes a URI, not '\(redirectText)'", of: command)
    }
    var authentication = OAuthClient.Authentication.none
    if parsed.flags.contains("client-secret-stdin") {
      let secret = try SecretInput.lineFromStdin(
        prompt: "Client secret: ", naming: "client secret")
      switch parsed.values["client-auth"] ?? "basic" {
      case "basic": authentication = .clientSecretBasic(secret)
      case "post": authentication = .clientSecretPost(secret)
      case let other:
        throw .usage("--client-auth takes basic or post, not '\(other)'", of: command)
      }
    } else if parsed.values["client-auth"] != nil {
      throw .usage("--client-auth needs --client-secret-stdin", of: command)
    }
    do {
      client = try OAuthClient(
        id: clientID, redirectURI: redirectURI, authentication: authentication)
    } catch {
      throw .usage(error.message, of: command)
    }
    self.issuer = issuer
    let scopes = (parsed.allValues["scope"] ?? []).flatMap {
      $0.split(separator: " ").map(String.init)
    }
    self.scopes = scopes.isEmpty ? ["openid"] : scopes
    json = parsed.flags.contains("json")
    transport = try FetchOptions.transport(parsed, of: command)
  }

  /// The flow for these options, its pages on `store`.
  @MainActor func session(store: WebsiteDataStore, driver: OAuthLoginDriver)
    -> WebAuthenticationSession
  {
    WebAuthenticationSession(
      provider: .issuer(issuer), client: client, scopes: scopes, loginDriver: driver,
      configuration: WebPage.Configuration(websiteDataStore: store, transport: transport))
  }

  /// What the command prints on stdout: the token response as the provider
  /// sent it, or with `--json` a document with the ID token's claims.
  func output(_ tokens: OAuthTokenResponse) -> [UInt8] {
    let raw = tokens.json.withUnsafeBytes { Array($0) }
    guard json else { return raw + [UInt8(ascii: "\n")] }
    var document: [String: Any] = [
      "issuer": issuer.absoluteString, "client_id": client.id,
      "token_response": (try? JSONSerialization.jsonObject(with: Data(raw))) ?? [:],
    ]
    if let idToken = tokens.idToken {
      document["id_token_claims"] =
        (try? JSONSerialization.jsonObject(with: Data(idToken.claimsJSON))) ?? [:]
    }
    let data =
      (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
    return Array(data) + [UInt8(ascii: "\n")]
  }
}

extension CLIError {
  /// An OAuth failure, as `sitedata` reports it (exit 1).
  static func oauth(_ error: OAuthError) -> CLIError {
    .failure("the OAuth flow failed: \(error)")
  }
}
