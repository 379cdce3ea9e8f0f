import Foundation
import WebsiteDataStore

/// The OAuth 2.0 authorization-code flow with PKCE, for a program without a
/// browser (AuthenticationServices' `ASWebAuthenticationSession` with
/// `prefersEphemeralWebBrowserSession`): the provider's own login and
/// consent pages run in a ``WebPage`` on a store that keeps nothing, a
/// ``OAuthLoginDriver`` fills them, the redirect URI is caught before it
/// is requested, and the code is exchanged for tokens whose ID token is
/// validated.
///
/// ```swift
/// let session = WebAuthenticationSession(
///   provider: .issuer(URL(string: "https://id.example/o")!),
///   client: try OAuthClient(id: "cli", redirectURI: URL(string: "http://127.0.0.1/callback")!),
///   scopes: ["openid", "email"],
///   loginDriver: .fields(["username": "alice", "password": .secret(password)]))
/// let tokens = try await session.start()
/// ```
///
/// Covers RFC 6749 §4.1 (with §10.12 `state`), RFC 7636 (S256), RFC 8252
/// (§7 redirect URIs, §8.3 loopback http), RFC 9207 (`iss`), OpenID
/// Connect Core §3.1 (nonce, ID token validation), the Form Post Response
/// Mode, and the refresh grant (RFC 6749 §6). Every failure is an
/// ``OAuthError`` that holds no token, code, verifier, password or cookie.
@MainActor public final class WebAuthenticationSession {
  /// Where the provider's endpoints come from.
  public enum Provider: Sendable {
    /// Discovered from the issuer (OpenID Connect Discovery, RFC 8414).
    case issuer(URL)
    /// Given explicitly.
    case metadata(OAuthServerMetadata)
  }

  public let provider: Provider
  public let client: OAuthClient
  public let scopes: [String]
  public let loginDriver: OAuthLoginDriver
  /// More authorization-request parameters (`prompt`, `login_hint`...).
  public var additionalParameters: [String: String] = [:]
  /// The pages' configuration: its ``WebPage/Configuration/websiteDataStore``
  /// (a fresh `.nonPersistent()` store when nil — never the default
  /// persistent one) and transport settings, which the discovery, token
  /// and JWK Set requests use too.
  public let configuration: WebPage.Configuration
  /// How many pages the login may take before the flow gives up.
  public var maximumLoginSteps = 20
  /// The provider's metadata, once discovered.
  public private(set) var metadata: OAuthServerMetadata?
  /// The page the flow ran the login in (its last document), once
  /// ``authorize()`` has run.
  public private(set) var page: WebPage?
  private let store: WebsiteDataStore
  private var keys: [JSONWebKey]?
  private var loaderSession: WebLoaderSession?

  /// A flow for `client` at `provider`; nothing is requested before
  /// ``start()`` or ``authorize()``.
  public init(
    provider: Provider, client: OAuthClient, scopes: [String] = ["openid"],
    loginDriver: OAuthLoginDriver, configuration: WebPage.Configuration = .init()
  ) {
    self.provider = provider
    self.client = client
    self.scopes = scopes
    self.loginDriver = loginDriver
    store = configuration.websiteDataStore ?? .nonPersistent()
    var configuration = configuration
    configuration.websiteDataStore = store
    configuration.loadsSubresources = false
    self.configuration = configuration
    if case .metadata(let metadata) = provider { self.metadata = metadata }
  }

  /// Runs the whole flow: ``authorize()``, then ``exchange(_:)``.
  public func start() async throws(OAuthError) -> OAuthTokenResponse {
    try await exchange(try await authorize())
  }

  /// Sends the authorization request in a page, drives the login with the
  /// login driver until the provider redirects (or form-posts) to the
  /// redirect URI, and checks the response (`iss`, `state`, errors).
  ///
  /// - Throws: ``OAuthError``: `.loginDidNotComplete` (with the page's URL
  ///   and title), `.accessDenied`, `.authorizationFailed`,
  ///   `.stateMismatch`, `.issuerMismatch`, `.redirectURIMismatch`,
  ///   discovery errors.
  public func authorize() async throws(OAuthError) -> OAuthAuthorizationCode {
    let metadata = try await providerMetadata()
    let request: OAuthAuthorizationRequest
    do {
      request = try OAuthAuthorizationRequest(
        metadata: metadata, clientID: client.id, redirectURI: client.redirectURI, scopes: scopes,
        additionalParameters: additionalParameters)
    } catch let error as OAuthError {
      throw error
    } catch {
      throw OAuthError(.invalidRequest, "no random bytes for the request's state and verifier")
    }
    let catcher = OAuthRedirectCatcher(client: client)
    var pageConfiguration = configuration
    pageConfiguration.navigationDecider = catcher
    let page = WebPage(configuration: pageConfiguration)
    self.page = page
    var failure = await Self.run(page.load(request.url))
    var submitted = Set<String>()
    for _ in 0..<maximumLoginSteps {
      if let caught = catcher.caught {
        let response =
          caught.body.map(OAuthAuthorizationResponse.init(body:))
          ?? OAuthAuthorizationResponse(url: caught.url)
        return OAuthAuthorizationCode(
          code: try response.code(for: request, metadata: metadata), request: request)
      }
      if let refused = catcher.refused {
        throw OAuthError(
          .redirectURIMismatch,
          "the provider sent the response to \(refused.path), not the redirect URI \(client.redirectURI.path)"
        )
      }
      if let failure {
        throw OAuthError(
          .loginDidNotComplete, "a page failed to load (\(failure.code))",
          pageURL: failure.url ?? page.url,
          pageTitle: page.title)
      }
      if let form = page.document?.selfSubmittingForm {
        failure = await Self.run(page.submit(form))
        continue
      }
      switch loginDriver.kind {
      case .fields(let values, let prompter):
        let (form, submitter) = try await OAuthLoginDriver.FieldStep(
          values: values, prompter: prompter
        ).submission(on: page, submitted: &submitted)
        failure = await Self.run(page.submit(form, using: submitter))
      case .custom(let step):
        let before = catcher.actions
        do {
          try await step(page)
        } catch {
          if catcher.caught == nil && catcher.refused == nil {
            throw OAuthError(
              .loginDidNotComplete, "the login driver failed (\(type(of: error)))",
              pageURL: page.url, pageTitle: page.title)
          }
        }
        failure = nil
        guard catcher.actions > before else {
          throw OAuthError(
            .loginDidNotComplete, "the login driver did not navigate", pageURL: page.url,
            pageTitle: page.title)
        }
      }
    }
    throw OAuthError(
      .loginDidNotComplete, "the login took more than \(maximumLoginSteps) pages",
      pageURL: page.url, pageTitle: page.title)
  }

  /// Exchanges `code` at the token endpoint (RFC 6749 §4.1.3 with the PKCE
  /// verifier, RFC 7636 §4.5), through the same store and TLS settings,
  /// and validates the ID token (OpenID Connect Core §3.1.3.7; required
  /// when `openid` was asked, §3.1.3.3).
  ///
  /// - Throws: ``OAuthError``: `.invalidGrant` (a used or expired code),
  ///   `.invalidClient`, `.tokenRequestFailed`, `.badSignature`,
  ///   `.invalidIDToken`, `.issuerMismatch`, `.nonceMismatch`.
  public func exchange(_ code: OAuthAuthorizationCode) async throws(OAuthError)
    -> OAuthTokenResponse
  {
    let grant: [HTMLForm.Entry] = [
      .string("grant_type", .text("authorization_code")), .string("code", .secret(code.code)),
      .string("redirect_uri", .text(code.request.redirectURI.absoluteString)),
      .string("code_verifier", .secret(code.request.pkce.verifier)),
    ]
    let requiresIDToken = code.request.scopes.contains("openid")
    return try await tokens(for: grant, nonce: code.request.nonce, requiresIDToken: requiresIDToken)
  }

  /// The refresh-token grant (RFC 6749 §6): new tokens for `refreshToken`,
  /// with `scopes` narrowed if given. A new ID token is validated as at
  /// sign-in, without a nonce (OpenID Connect Core §12.2).
  ///
  /// - Throws: ``OAuthError`` `.invalidGrant` for a revoked, expired or
  ///   rotated refresh token; the others of ``exchange(_:)``.
  public func refresh(_ refreshToken: SecretBytes, scopes: [String]? = nil) async throws(OAuthError)
    -> OAuthTokenResponse
  {
    var grant: [HTMLForm.Entry] = [
      .string("grant_type", .text("refresh_token")),
      .string("refresh_token", .secret(refreshToken)),
    ]
    if let scopes { grant.append(.string("scope", .text(scopes.joined(separator: " ")))) }
    return try await tokens(for: grant, nonce: nil, requiresIDToken: false)
  }

  /// Sends a token request and validates what comes back.
  private func tokens(for grant: [HTMLForm.Entry], nonce: String?, requiresIDToken: Bool)
    async throws(OAuthError) -> OAuthTokenResponse
  {
    let metadata = try await providerMetadata()
    let request = OAuthTokenRequest(metadata: metadata, client: client, session: try session())
    let (body, object) = try await request.send(grant)
    var idToken: OAuthIDToken?
    if let compact = object["id_token"] as? String {
      idToken = try OAuthIDToken(
        verifying: compact, keys: try await signingKeys(metadata), issuer: metadata.issuer,
        clientID: client.id, expectedNonce: nonce)
    } else if requiresIDToken {
      throw OAuthError(
        .invalidIDToken, "the token response has no ID token, though openid was asked")
    }
    return try OAuthTokenResponse(body: body, object: object, idToken: idToken)
  }

  /// The metadata, discovered once.
  private func providerMetadata() async throws(OAuthError) -> OAuthServerMetadata {
    if let metadata { return metadata }
    let issuer: URL
    switch provider {
    case .metadata(let given): return given
    case .issuer(let url): issuer = url
    }
    let discovered = try await OAuthServerMetadata.discover(issuer: issuer, using: try session())
    metadata = discovered
    return discovered
  }

  /// The provider's JWK Set, fetched once (RFC 7517 §5, `jwks_uri`).
  private func signingKeys(_ metadata: OAuthServerMetadata) async throws(OAuthError)
    -> [JSONWebKey]
  {
    if let keys { return keys }
    guard let jwksURI = metadata.jwksURI else {
      throw OAuthError(.badSignature, "the provider publishes no JWK Set (jwks_uri)")
    }
    let response: LoadResponse
    do {
      let session = try session()
      response = try await session.load(
        LoadRequest(
          url: try session.store.url(jwksURI),
          headers: [HTTPHeader("Accept", "application/jwk-set+json, application/json")]))
    } catch {
      throw OAuthError(.badSignature, "the provider's JWK Set could not be fetched (\(error))")
    }
    guard response.status == 200 else {
      throw OAuthError(.badSignature, "the provider's JWK Set answered \(response.status)")
    }
    let fetched = try JSONWebKey.keySet(from: response.body)
    keys = fetched
    return fetched
  }

  /// The loader session of the flow's store and transport settings, for
  /// discovery, the JWK Set and the token endpoint.
  private func session() throws(OAuthError) -> WebLoaderSession {
    if let loaderSession { return loaderSession }
    do {
      let session = try WebLoaderSession(
        store: store, configuration: configuration.loadConfiguration)
      loaderSession = session
      return session
    } catch {
      throw OAuthError(.invalidRequest, "the loader refused the configuration (\(error))")
    }
  }

  /// Runs a navigation to its end; its error, if it failed.
  private static func run(_ navigation: WebPage.Navigation) async -> WebPage.NavigationError? {
    do {
      for try await _ in navigation {}
      return nil
    } catch {
      return error as? WebPage.NavigationError
    }
  }
}
