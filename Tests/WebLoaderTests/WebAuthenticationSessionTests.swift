import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing
import WebsiteDataStore

@testable import WebLoader

/// The authorization-code flow against a real provider, django-oauth-toolkit
/// (OpenID Connect, RS256, PKCE required, Django's login form with its CSRF
/// cookie and token, a consent form): the whole flow for public and
/// confidential clients, the refresh grant, and each failure a provider or
/// an attacker can cause. No error holds a token, code or password.
@MainActor @Suite(.hangGuard) struct WebAuthenticationSessionTests {
  let provider: OAuthProvider

  init() async throws { provider = try await OAuthProvider.shared() }

  /// The error `work` throws, checked to be an ``OAuthError`` that holds
  /// no secret.
  func failure(_ work: () async throws -> Void) async -> OAuthError? {
    do {
      try await work()
      return nil
    } catch {
      for text in [String(describing: error), String(reflecting: error)] {
        #expect(!text.contains(OAuthProvider.password))
        #expect(!text.contains("code="))
      }
      #expect(error is OAuthError)
      return error as? OAuthError
    }
  }

  static func text(_ secret: SecretBytes) -> String {
    secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }

  @Test func aPublicClientLogsInConsentsAndRefreshes() async throws {
    let session = try provider.session(client: "public-app")
    let tokens = try await session.start()
    #expect(tokens.tokenType.lowercased() == "bearer")
    #expect(tokens.accessToken.count > 10)
    #expect((tokens.expiresIn ?? 0) > 0)
    let idToken = try #require(tokens.idToken)
    #expect(idToken.issuer == provider.issuer.absoluteString)
    #expect(idToken.audiences == ["public-app"])
    #expect(idToken.string("email") == "alice@example.test")
    #expect(idToken.nonce != nil)
    let description = String(describing: tokens) + String(reflecting: tokens)
    #expect(!description.contains(Self.text(tokens.accessToken)))
    // The provider's session cookie and CSRF cookie stayed in the flow's
    // own store, which is not persistent.
    let store = try #require(session.configuration.websiteDataStore)
    #expect(!store.isPersistent)
    #expect(
      Set(await store.httpCookieStore.allCookies().map(\.name)).isSuperset(of: [
        "csrftoken", "sessionid",
      ]))
    // The refresh grant: new tokens, a new ID token; the old refresh token
    // is rotated away.
    let refreshToken = try #require(tokens.refreshToken)
    let refreshed = try await session.refresh(refreshToken)
    #expect(Self.text(refreshed.accessToken) != Self.text(tokens.accessToken))
    #expect(refreshed.idToken?.subject == idToken.subject)
    let reused = await failure { _ = try await session.refresh(refreshToken) }
    #expect(reused?.code == .invalidGrant)
    #expect(reused?.providerError == "invalid_grant")
  }

  @Test(arguments: ["basic", "post"])
  func aConfidentialClientAuthenticatesWithItsSecret(_ method: String) async throws {
    func authentication(_ secret: String) -> OAuthClient.Authentication {
      let bytes = OAuthProvider.secret(secret)
      return method == "basic" ? .clientSecretBasic(bytes) : .clientSecretPost(bytes)
    }
    let good = try provider.session(
      client: "confidential-app", authentication: authentication("s3cret-basic"))
    #expect(try await good.start().idToken?.audiences == ["confidential-app"])
    let wrong = try provider.session(
      client: "confidential-app", authentication: authentication("guess"))
    let error = await failure { _ = try await wrong.start() }
    #expect(error?.code == .invalidClient)
    #expect(!(error?.description.contains("guess") ?? true))
  }

  @Test func aReplayedCodeIsRefused() async throws {
    let session = try provider.session(client: "public-app")
    let code = try await session.authorize()
    #expect(!String(describing: code).contains(Self.text(code.code)))
    _ = try await session.exchange(code)
    let replay = await failure { _ = try await session.exchange(code) }
    #expect(replay?.code == .invalidGrant)
  }

  @Test func aWrongPasswordStopsOnTheLoginPage() async throws {
    var fields = OAuthProvider.aliceFields
    fields["password"] = .secret(copying: "not-her-password")
    let session = try provider.session(client: "public-app", driver: .fields(fields))
    let error = await failure { _ = try await session.start() }
    #expect(error?.code == .loginDidNotComplete)
    let origin = "https://\(OAuthProvider.host):\(provider.port)"
    #expect(error?.pageURL?.absoluteString == origin + "/accounts/login/")
    #expect(error?.pageTitle == "Sign in · Test Identity Provider")
    #expect(session.page?.html?.contains("Please enter a correct username and password") == true)
    #expect(!(error?.description.contains("not-her-password") ?? true))
  }

  /// Chooses the button labelled `label` on a consent page.
  final class ButtonChooser: OAuthLoginPrompting {
    let label: String
    var asked: [String] = []
    init(_ label: String) { self.label = label }
    func value(for field: HTMLFormControl, in form: HTMLForm, on page: WebPage) async
      -> HTMLFormValue?
    {
      asked.append(field.name)
      return nil
    }
    func button(among buttons: [HTMLFormControl], in form: HTMLForm, on page: WebPage) async
      -> HTMLFormControl?
    {
      buttons.first { $0.value.text == label }
    }
  }

  @Test func aDeniedConsentIsAccessDenied() async throws {
    let chooser = ButtonChooser("Cancel")
    let session = try provider.session(
      client: "public-app", driver: .fields(OAuthProvider.aliceFields, prompter: chooser))
    let error = await failure { _ = try await session.start() }
    #expect(error?.code == .accessDenied)
    #expect(error?.providerError == "access_denied")
    #expect(chooser.asked.isEmpty)
    // Without a choice and without a prompter, the flow says which buttons.
    let undecided = try provider.session(
      client: "public-app", driver: .fields(OAuthProvider.aliceFields))
    let stopped = await failure { _ = try await undecided.start() }
    #expect(stopped?.code == .loginDidNotComplete)
    #expect(stopped?.message.contains("Cancel, Authorize") == true)
    #expect(stopped?.pageTitle?.hasPrefix("Authorize") == true)
  }

  @Test func aMissingFieldIsAskedOfThePrompterOrStopsTheFlow() async throws {
    let chooser = ButtonChooser("Authorize")
    let session = try provider.session(
      client: "public-app", driver: .fields(["username": "alice"], prompter: chooser))
    #expect(await failure { _ = try await session.start() }?.code == .loginDidNotComplete)
    #expect(chooser.asked == ["password"])
  }

  @Test(arguments: [
    ("tampered-state", OAuthError.Code.stateMismatch),
    ("wrong-iss", .issuerMismatch),
    ("bad-signature", .badSignature),
    ("wrong-nonce", .nonceMismatch),
    ("open-redirect", .redirectURIMismatch),
  ])
  func aMisbehavingProviderIsCaught(_ client: String, _ expected: OAuthError.Code) async throws {
    let session = try provider.session(client: client)
    #expect(await failure { _ = try await session.start() }?.code == expected)
  }

  @Test(arguments: ["iss-app", "form-post"])
  func anIssuerParameterAndAFormPostResponseAreAccepted(_ client: String) async throws {
    let tokens = try await provider.session(client: client).start()
    #expect(tokens.idToken?.audiences == [client])
  }

  @Test(arguments: [
    "com.example.app:/oauth/callback", "http://127.0.0.1:54321/callback",
  ])
  func customSchemeAndLoopbackRedirectURIsAreCaught(_ redirectURI: String) async throws {
    let session = try provider.session(client: "public-app", redirectURI: redirectURI)
    let code = try await session.authorize()
    #expect(code.request.redirectURI.absoluteString == redirectURI)
    #expect(try await session.exchange(code).idToken != nil)
  }

  @Test func anUnregisteredRedirectURIEndsOnTheProvidersErrorPage() async throws {
    let session = try provider.session(client: "public-app", redirectURI: "https://app.test/other")
    let error = await failure { _ = try await session.start() }
    #expect(error?.code == .loginDidNotComplete)
    #expect(
      error?.pageURL?.absoluteString
        == "https://\(OAuthProvider.host):\(provider.port)/o/authorize/")
  }

  @Test func aCustomDriverGetsThePageAtEachStep() async throws {
    let titles = TitleLog()
    let driver = OAuthLoginDriver.custom { page in
      titles.titles.append(page.title)
      guard let form = page.document?.forms.first else { return }
      if form["password"] != nil {
        let filled = try form.filling(OAuthProvider.aliceFields)
        for try await _ in page.submit(filled) {}
      } else {
        for try await _ in page.submit(form, using: form.submitButtons.first { $0.name == "allow" })
        {}
      }
    }
    let tokens = try await provider.session(client: "public-app", driver: driver).start()
    #expect(tokens.idToken != nil)
    #expect(titles.titles.count == 2)
    #expect(titles.titles.first == "Sign in · Test Identity Provider")
    // A step that does nothing stops the flow.
    let idle = try provider.session(client: "public-app", driver: .custom { _ in })
    #expect(await failure { _ = try await idle.start() }?.code == .loginDidNotComplete)
  }

  @MainActor final class TitleLog { var titles: [String] = [] }
}
