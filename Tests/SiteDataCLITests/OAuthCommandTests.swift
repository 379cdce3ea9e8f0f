import Foundation
import LoopbackTestServer
import ProcessHarness
import TestScratch
import Testing

/// `sitedata oauth login|refresh`, launched as a user would, against a real
/// django-oauth-toolkit provider: the token response on stdout and nothing
/// else, nothing written anywhere, the refresh grant, a scratch copy of a
/// store that keeps the provider's session, and the failures' exit status
/// and reason, never with a secret.
@Suite(.hangGuard) struct OAuthCommandTests {
  let provider: OAuthProvider
  let sandbox: CLISandbox

  init() async throws {
    provider = try await OAuthProvider.shared()
    sandbox = try CLISandbox()
  }

  /// The provider and its client, reached through `--resolve` and the test CA.
  func reach(client: String = "public-app") -> [String] {
    [
      "--issuer", provider.issuer.absoluteString, "--client-id", client, "--resolve",
      "\(OAuthProvider.host):\(provider.port):127.0.0.1", "--cacert", provider.caFile,
      "--timeout", "30",
    ]
  }

  /// `oauth login` as alice, her password on stdin.
  func login(
    _ extra: [String] = [], client: String = "public-app", stdin: String? = nil,
    environment: [String: String] = [:]
  ) async throws -> SiteDataProcess.Outcome {
    try await sandbox.run(
      ["oauth", "login"] + reach(client: client) + [
        "--scope", "openid email", "--field", "username=alice", "--field-stdin", "password",
      ] + extra, stdin: stdin ?? OAuthProvider.password + "\n", environment: environment)
  }

  static func json(_ outcome: SiteDataProcess.Outcome) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdoutBytes)) as? [String: Any])
  }

  /// Every entry under `folder`, recursively.
  static func entries(_ folder: String) -> [String] {
    (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? []
  }

  @Test func loginPrintsTheTokenResponseAndLeavesNothingBehind() async throws {
    let tmp = try TemporaryFolder("oauth-tmp")
    defer { tmp.remove() }
    let outcome = try await login(
      ["--field", "allow=Authorize"], environment: ["TMPDIR": tmp.path])
    #expect(outcome.status == 0, "\(outcome)")
    // stdout is the provider's token response, one JSON object.
    let response = try Self.json(outcome)
    #expect(response["token_type"] as? String == "Bearer")
    #expect(response["access_token"] is String && response["refresh_token"] is String)
    #expect(response["id_token"] is String)
    #expect(outcome.stdout.hasSuffix("}\n"))
    #expect(!outcome.stderr.contains(OAuthProvider.password))
    #expect(!outcome.stderr.contains(response["access_token"] as? String ?? "?"))
    // Nothing was written: HOME, the XDG folders and TMPDIR stay empty.
    #expect(Self.entries(sandbox.root) == ["home"])
    #expect(Self.entries(tmp.path).isEmpty)
  }

  @Test func jsonAddsTheIDTokensClaimsAndRefreshExchangesTheRefreshToken() async throws {
    let outcome = try await login(["--field", "allow=Authorize", "--json"])
    #expect(outcome.status == 0, "\(outcome)")
    let document = try Self.json(outcome)
    #expect(document["issuer"] as? String == provider.issuer.absoluteString)
    #expect(document["client_id"] as? String == "public-app")
    let claims = try #require(document["id_token_claims"] as? [String: Any])
    #expect(claims["email"] as? String == "alice@example.test")
    let tokens = try #require(document["token_response"] as? [String: Any])
    let refreshToken = try #require(tokens["refresh_token"] as? String)
    let refreshed = try await sandbox.run(
      ["oauth", "refresh"] + reach(), stdin: refreshToken + "\n")
    #expect(refreshed.status == 0, "\(refreshed)")
    let fresh = try Self.json(refreshed)
    #expect(fresh["access_token"] as? String != tokens["access_token"] as? String)
    // The provider rotated it: the old one is refused, and not echoed.
    let again = try await sandbox.run(["oauth", "refresh"] + reach(), stdin: refreshToken + "\n")
    #expect(again.status == 1)
    #expect(again.stdout.isEmpty)
    #expect(again.stderr.contains("invalid-grant"))
    #expect(!again.stderr.contains(refreshToken))
  }

  @Test func aConfidentialClientReadsItsSecretFromStdin() async throws {
    for method in ["basic", "post"] {
      let outcome = try await login(
        ["--field", "allow=Authorize", "--client-secret-stdin", "--client-auth", method],
        client: "confidential-app", stdin: "s3cret-basic\n" + OAuthProvider.password + "\n")
      #expect(outcome.status == 0, "\(method): \(outcome)")
    }
    let wrong = try await login(
      ["--field", "allow=Authorize", "--client-secret-stdin"], client: "confidential-app",
      stdin: "guess\n" + OAuthProvider.password + "\n")
    #expect(wrong.status == 1)
    #expect(wrong.stderr.contains("invalid-client"))
    #expect(!wrong.stderr.contains("guess"))
  }

  @Test func failuresExitOneWithTheReason() async throws {
    let wrongPassword = try await login(["--field", "allow=Authorize"], stdin: "guess-again\n")
    #expect(wrongPassword.status == 1)
    #expect(wrongPassword.stdout.isEmpty)
    #expect(wrongPassword.stderr.contains("login-did-not-complete"))
    #expect(wrongPassword.stderr.contains("Sign in · Test Identity Provider"))
    #expect(!wrongPassword.stderr.contains("guess-again"))
    // No terminal and no button named: the consent page's buttons are listed.
    let undecided = try await login()
    #expect(undecided.status == 1)
    #expect(undecided.stderr.contains("Cancel, Authorize"))
    let tampered = try await login(["--field", "allow=Authorize"], client: "tampered-state")
    #expect(tampered.status == 1)
    #expect(tampered.stderr.contains("state-mismatch"))
  }

  @Test func plainHTTPIsAcceptedOnLoopbackOnly() async throws {
    let redirect = try await sandbox.run(
      ["oauth", "login"] + reach() + ["--redirect-uri", "http://app.test/callback"])
    #expect(redirect.status == 64)
    #expect(redirect.stderr.contains("not https"))
    let issuer = try await sandbox.run(
      [
        "oauth", "login", "--issuer", "http://\(OAuthProvider.host):\(provider.port)/o",
        "--client-id", "x",
      ])
    #expect(issuer.status == 1)
    #expect(issuer.stderr.contains("insecure-endpoint"))
    let missing = try await sandbox.run(["oauth", "login", "--client-id", "x"])
    #expect(missing.status == 64)
  }

  @Test func aScratchCopyOfAStoreKeepsOnlyTheProvidersSession() async throws {
    try await sandbox.set("https://a.test/", ["mine=1; Max-Age=3600"])
    let first = try await login(
      [
        "--field", "allow=Authorize", "--from-store", "default", "--keep-cookies-for",
        OAuthProvider.host,
      ])
    #expect(first.status == 0, "\(first)")
    #expect(first.stderr.contains("cookies of \(OAuthProvider.host) in the store"))
    let listed = try await sandbox.succeed(["cookies", "list"])
    #expect(listed.stdout.contains("sessionid") && listed.stdout.contains("mine"))
    // The next login uses that session: no password is asked or given.
    let second = try await sandbox.run(
      ["oauth", "login"] + reach() + ["--field", "allow=Authorize", "--from-store", "default"])
    #expect(second.status == 0, "\(second)")
    // Without --keep-cookies-for, the store is not changed.
    #expect(try await sandbox.succeed(["cookies", "list"]).stdout == listed.stdout)
  }

  /// `oauth login` in a pseudo-terminal, answering `dialogue` (prompt,
  /// answer pairs) as a person would.
  func loginAtATerminal(_ dialogue: [String]) async throws -> SiteDataProcess.Outcome {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Support/terminal_dialogue.py").path
    return try await sandbox.run(
      ["oauth", "login"] + reach() + ["--field", "username=alice"],
      launcher: ["/usr/bin/env", "python3", script] + dialogue + ["--"])
  }

  @Test func onATerminalTheMissingPasswordAndTheButtonAreAsked() async throws {
    let granted = try await loginAtATerminal([
      "password: ", OAuthProvider.password, "Choice [1-2]: ", "2",
    ])
    #expect(granted.status == 0, "\(granted)")
    #expect(granted.stdout.contains("[Sign in · Test Identity Provider] password: "))
    #expect(granted.stdout.contains("1) Cancel") && granted.stdout.contains("2) Authorize"))
    #expect(granted.stdout.contains("\"access_token\""))
    // The password was not echoed.
    #expect(!granted.stdout.contains(OAuthProvider.password))
    let denied = try await loginAtATerminal([
      "password: ", OAuthProvider.password, "Choice [1-2]: ", "1",
    ])
    #expect(denied.status == 1, "\(denied)")
    #expect(denied.stdout.contains("access-denied"))
    #expect(!denied.stdout.contains("access_token"))
  }
}
