import Foundation
import LoopbackTestServer
import ProcessHarness
import Testing

/// `sitedata cookies import --from-browser chromium|chrome|firefox
/// [--profile NAME]`: profiles found where the browsers lay them out under
/// `$HOME` (made here from the real browsers' databases of
/// `BrowserImportCommandTests.fixtures`, with Chromium's `Local State` and
/// Firefox's `profiles.ini` as the browsers write them), and Chromium's
/// `v11` values unlocked through a real Secret Service: GNOME Keyring's
/// daemon on a private D-Bus session bus (`dbus-run-session`), holding the
/// password as Chromium's `KeyStorageLibsecret` stores it.
@Suite struct FromBrowserCommandTests {
  static let fixtures = BrowserImportCommandTests.fixtures

  /// The keyring password of `v11KnownAnswer` (ChromiumCookieDatabaseTests:
  /// `openssl enc -aes-128-cbc` with PBKDF2-HMAC-SHA1 of this password).
  static let keyringPassword = "test keyring password"
  static let v11KnownAnswer =
    "ef8ab1355756602c0e520eaccea2a462c687a03804c2f83f1e6c6b3f7df66bf3"
    + "83cd2ee445f26ac23303fca8089cdfb2b0c99bb049a45b3c37d31c8cf8004d1f"

  /// A home with two Chromium profiles ("Person 1" in `Default`, "Work" in
  /// `Profile 1`, the last used) and one Firefox profile; the Chromium
  /// databases have one more row, a `v11` session cookie `keyring` of
  /// `.example.test`.
  static func makeHome(_ sandbox: CLISandbox) async throws -> String {
    let home = sandbox.root + "/home"
    let chromium = sandbox.configHome + "/chromium"
    for profile in ["Default", "Profile 1/Network"] {
      try FileManager.default.createDirectory(
        atPath: chromium + "/" + profile, withIntermediateDirectories: true)
      let database = chromium + "/" + profile + "/Cookies"
      try FileManager.default.copyItem(atPath: fixtures + "/chromium/Cookies", toPath: database)
      try await addV11Row(to: database)
    }
    try sandbox.write(
      #"{"profile":{"last_used":"Profile 1","info_cache":{"Default":{"name":"Person 1"},"#
        + #""Profile 1":{"name":"Work"}}}}"#, to: "config/chromium/Local State")
    let firefox = home + "/.mozilla/firefox"
    for profile in ["k3x9.default-release", "old.default"] {
      try FileManager.default.createDirectory(
        atPath: firefox + "/" + profile, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        atPath: fixtures + "/firefox/cookies.sqlite",
        toPath: firefox + "/" + profile + "/cookies.sqlite")
    }
    try sandbox.write(
      """
      [Profile1]
      Name=default
      IsRelative=1
      Path=old.default
      Default=1

      [Profile0]
      Name=default-release
      IsRelative=1
      Path=k3x9.default-release

      [General]
      StartWithLastProfile=1
      Version=2

      [Install4F96D1932A9F858E]
      Default=k3x9.default-release
      Locked=1

      """, to: "home/.mozilla/firefox/profiles.ini")
    return home
  }

  /// Inserts the `v11` row with Python's `sqlite3`.
  static func addV11Row(to database: String) async throws {
    let script = """
      import sqlite3, sys
      db = sqlite3.connect(sys.argv[1])
      db.execute("INSERT INTO cookies (creation_utc, host_key, top_frame_site_key, name, value,"
        " encrypted_value, path, expires_utc, is_secure, is_httponly, last_access_utc,"
        " has_expires, is_persistent, priority, samesite, source_scheme, source_port,"
        " last_update_utc, source_type, has_cross_site_ancestor) VALUES (13400000000000000,"
        " '.example.test', '', 'keyring', '', ?, '/', 0, 1, 0, 13400000000000000, 0, 0, 1, -1,"
        " 2, 443, 13400000000000000, 1, 1)", (b"v11" + bytes.fromhex(sys.argv[2]),))
      db.commit()
      """
    let outcome = try await ChildProcess.run(
      "/usr/bin/python3", arguments: ["-c", script, database, v11KnownAnswer])
    #expect(outcome.status.shellCode == 0, "\(outcome.stderrText)")
  }

  /// Runs `sitedata` on a private session bus with GNOME Keyring's Secret
  /// Service, unlocked; `storedPassword`: what the keyring holds for
  /// `application` (as Chromium stores it), or nothing.
  static func keyringLauncher(_ sandbox: CLISandbox, storedPassword: String?, application: String)
    throws -> [String]
  {
    let store =
      storedPassword == nil
      ? ""
      : "printf %s \"$STORED_PASSWORD\" | secret-tool store --label='Chromium Safe Storage'"
        + " xdg:schema chrome_libsecret_os_crypt_password_v2 application \(application)"
    let script = try sandbox.write(
      """
      set -e
      export XDG_RUNTIME_DIR="$KEYRING_FOLDER/run" XDG_DATA_HOME="$KEYRING_FOLDER/data"
      mkdir -p -m 700 "$XDG_RUNTIME_DIR"
      printf 'unlock' | gnome-keyring-daemon --unlock --components=secrets >/dev/null
      # The daemon registers on the bus after it returns: until it has, a
      # client would start a second one through D-Bus activation, without
      # the unlocked login keyring (seen under load: "Object does not exist
      # at path /org/freedesktop/secrets/collection/login").
      for _ in $(seq 1 100); do
        dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \\
          org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null \\
          | grep -q true && break
        sleep 0.1
      done
      \(store)
      export XDG_DATA_HOME="$STORE_DATA_HOME"
      exec "$@"

      """, to: "keyring-session.sh")
    return ["/usr/bin/dbus-run-session", "--", "/bin/sh", script]
  }

  static func keyringEnvironment(_ sandbox: CLISandbox, storedPassword: String?) -> [String:
    String]
  {
    [
      "KEYRING_FOLDER": sandbox.root + "/keyring", "STORED_PASSWORD": storedPassword ?? "",
      "STORE_DATA_HOME": sandbox.dataHome,
    ]
  }

  static func storedCookie(_ sandbox: CLISandbox, named name: String) async throws -> [String:
    Any]?
  {
    let list = try await sandbox.succeed(["cookies", "list", "--json"])
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(list.stdoutBytes)) as? [String: Any])
    return (root["cookies"] as? [[String: Any]])?.first { $0["name"] as? String == name }
  }

  /// The live cookies of the Chromium fixture, plus the v11 one.
  static func chromiumCount() throws -> Int {
    let now = Date().timeIntervalSince1970
    return try BrowserImportCommandTests.expected("chromium").filter {
      ($0["expiry"] as? Double).map { $0 > now + 60 } ?? true
    }.count
  }

  @Test func theKeyringUnlocksV11Values() async throws {
    let sandbox = try CLISandbox()
    _ = try await Self.makeHome(sandbox)
    let outcome = try await sandbox.run(
      ["cookies", "import", "--from-browser", "chromium"],
      environment: Self.keyringEnvironment(sandbox, storedPassword: Self.keyringPassword),
      launcher: try Self.keyringLauncher(
        sandbox, storedPassword: Self.keyringPassword, application: "chromium"))
    #expect(
      outcome.stdout.hasPrefix("imported \(try Self.chromiumCount() + 1), skipped 0"), "\(outcome)")
    #expect(
      outcome.stderr.contains(
        "Note: reading Chromium profile 'Work' (\(sandbox.configHome)/chromium/Profile 1/Network/Cookies)\n"
      ))
    #expect(
      outcome.stderr.contains(
        "Note: the keyring's chromium Safe Storage password unlocks v11 values\n"))
    #expect(!outcome.stderr.contains(Self.keyringPassword))
    let cookie = try #require(try await Self.storedCookie(sandbox, named: "keyring"))
    #expect(cookie["value"] as? String == "keyring-protected value")
    #expect(cookie["domain"] as? String == "example.test")
  }

  /// Chrome's password is stored under `chrome`: Chromium's is not taken
  /// for it, and the row stays unread.
  /// The real Chromium (Debian's), on a private session bus with GNOME
  /// Keyring and `--password-store=gnome-libsecret`, makes its own random
  /// Safe Storage password, keeps it in the keyring and encrypts the cookie
  /// a loopback page sets as `v11`; the import finds the profile and the
  /// password, and gets the value back.
  @Test func aProfileTheRealChromiumWroteUnderItsKeyring() async throws {
    let sandbox = try CLISandbox()
    let server = try await TestServer.shared()
    let page =
      server.origin("http", "a.test") + "/set?c="
      + "login=written-by-chromium; Max-Age=86400; Path=/; HttpOnly".queryEncoded
    let script = try sandbox.write(
      """
      set -e
      export XDG_RUNTIME_DIR="$KEYRING_FOLDER/run" XDG_DATA_HOME="$KEYRING_FOLDER/data"
      mkdir -p -m 700 "$XDG_RUNTIME_DIR"
      printf 'unlock' | gnome-keyring-daemon --unlock --components=secrets >/dev/null
      timeout 120 /usr/bin/chromium --headless=new --no-sandbox --disable-gpu \
        --disable-dev-shm-usage --no-first-run --password-store=gnome-libsecret \
        --user-data-dir="$XDG_CONFIG_HOME/chromium" --host-resolver-rules="MAP * 127.0.0.1" \
        --dump-dom "$PAGE" >/dev/null 2>"$KEYRING_FOLDER/chromium.log"
      export XDG_DATA_HOME="$STORE_DATA_HOME"
      exec "$@"

      """, to: "chromium-session.sh")
    var environment = Self.keyringEnvironment(sandbox, storedPassword: nil)
    environment["PAGE"] = page
    let outcome = try await sandbox.run(
      ["cookies", "import", "--from-browser", "chromium"], environment: environment,
      launcher: ["/usr/bin/dbus-run-session", "--", "/bin/sh", script])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(
      outcome.stdout == "imported 1, skipped 0 (unreadable), rejected 0 (refused by the store)\n")
    #expect(
      outcome.stderr.contains(
        "Note: the keyring's chromium Safe Storage password unlocks v11 values\n"))
    let cookie = try #require(try await Self.storedCookie(sandbox, named: "login"))
    #expect(cookie["value"] as? String == "written-by-chromium")
    #expect(cookie["domain"] as? String == "a.test" && cookie["hostOnly"] as? Bool == true)
    #expect(cookie["httpOnly"] as? Bool == true)
    // The value on disk was the keyring's kind (v11), not the fixed v10 key.
    let prefix = try await ChildProcess.run(
      "/usr/bin/python3",
      arguments: [
        "-c",
        "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("
          + "'SELECT substr(encrypted_value, 1, 3) FROM cookies').fetchone()[0].decode())",
        sandbox.configHome + "/chromium/Default/Cookies",
      ])
    #expect(prefix.stdoutText == "v11\n", "\(prefix.stderrText)")
  }

  @Test func theKeyringIsAskedUnderTheBrowsersName() async throws {
    let sandbox = try CLISandbox()
    _ = try await Self.makeHome(sandbox)
    let outcome = try await sandbox.run(
      ["cookies", "import", "--from-browser", "chromium", "--profile", "Default"],
      environment: Self.keyringEnvironment(sandbox, storedPassword: Self.keyringPassword),
      launcher: try Self.keyringLauncher(
        sandbox, storedPassword: Self.keyringPassword, application: "chrome"))
    #expect(outcome.status == 1, "\(outcome)")
    #expect(
      outcome.stderr.contains("Note: the keyring holds no chromium Safe Storage password\n"),
      "\(outcome)")
    #expect(outcome.stderr.contains("keyring password (v11); give that password to read it"))
    #expect(outcome.stdout.hasPrefix("imported \(try Self.chromiumCount()), skipped 1"))
    #expect(try await Self.storedCookie(sandbox, named: "keyring") == nil)
  }

  @Test func withoutAnyKeyringTheRowIsReportedAndTheRestImported() async throws {
    let sandbox = try CLISandbox()
    _ = try await Self.makeHome(sandbox)
    let outcome = try await sandbox.run(
      ["cookies", "import", "--from-browser", "chromium"],
      environment: [
        "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(sandbox.root)/no-bus", "DISPLAY": "",
      ])
    #expect(outcome.status == 1, "\(outcome)")
    #expect(outcome.stderr.contains("Note: no keyring answered ("), "\(outcome)")
    #expect(outcome.stdout.hasPrefix("imported \(try Self.chromiumCount()), skipped 1"))
  }

  /// A password given outright is used, and the keyring is not asked.
  @Test func aGivenPasswordComesFirst() async throws {
    let sandbox = try CLISandbox()
    _ = try await Self.makeHome(sandbox)
    let outcome = try await sandbox.run(
      ["cookies", "import", "--from-browser", "chromium", "--password-stdin"],
      stdin: Self.keyringPassword + "\n",
      environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(sandbox.root)/no-bus"])
    #expect(outcome.status == 0, "\(outcome)")
    #expect(!outcome.stderr.contains("keyring"), "\(outcome)")
    #expect(
      try await Self.storedCookie(sandbox, named: "keyring")?["value"] as? String
        == "keyring-protected value")
  }

  @Test(arguments: [
    (["--profile", "Person 1"], "Default/Cookies"),
    (["--profile", "Default"], "Default/Cookies"),
    (["--profile", "Profile 1"], "Profile 1/Network/Cookies"),
    ([], "Profile 1/Network/Cookies"),
  ])
  func chromiumProfiles(options: [String], database: String) async throws {
    let sandbox = try CLISandbox()
    _ = try await Self.makeHome(sandbox)
    let outcome = try await sandbox.run(
      ["cookies", "import", "--from-browser", "chromium", "--ephemeral", "-q"] + options,
      environment: ["SITEDATA_CHROMIUM_PASSWORD": Self.keyringPassword])
    #expect(outcome.status == 0, "\(outcome)")
    let loud = try await sandbox.run(
      ["cookies", "import", "--from-browser", "chromium", "--ephemeral"] + options,
      environment: ["SITEDATA_CHROMIUM_PASSWORD": Self.keyringPassword])
    #expect(
      loud.stderr.contains("(\(sandbox.configHome)/chromium/\(database))\n"), "\(loud)")
  }

  /// Firefox's installation default wins over the older `Default=1`; a
  /// profile is found by its name or folder, or given as a path.
  @Test(arguments: [
    ([], "k3x9.default-release", "default-release"),
    (["--profile", "default"], "old.default", "default"),
    (["--profile", "old.default"], "old.default", "default"),
  ])
  func firefoxProfiles(options: [String], folder: String, name: String) async throws {
    let sandbox = try CLISandbox()
    let home = try await Self.makeHome(sandbox)
    let outcome = try await sandbox.run(
      ["cookies", "import", "--from-browser", "firefox"] + options)
    #expect(
      outcome.stderr.hasPrefix(
        "Note: reading Firefox profile '\(name)' (\(home)/.mozilla/firefox/\(folder)/cookies.sqlite)\n"
      ),
      "\(outcome)")
    #expect(outcome.stdout.hasPrefix("imported "), "\(outcome)")
    let byPath = try await sandbox.run(
      [
        "cookies", "import", "--from-browser", "firefox", "--ephemeral", "--profile",
        home + "/.mozilla/firefox/" + folder,
      ])
    #expect(byPath.status == outcome.status, "\(byPath)")
  }

  @Test func missingBrowsersAndProfilesAreClearErrors() async throws {
    let sandbox = try CLISandbox()
    let none = try await sandbox.run(["cookies", "import", "--from-browser", "chrome"])
    #expect(none.status == 1)
    #expect(
      none.stderr
        == "Error: no Chrome profile with cookies in \(sandbox.configHome)/google-chrome,"
        + " \(sandbox.root)/home/.var/app/com.google.Chrome/config/google-chrome\n")
    _ = try await Self.makeHome(sandbox)
    let unknown = try await sandbox.run(
      ["cookies", "import", "--from-browser", "chromium", "--profile", "Nobody"])
    #expect(unknown.status == 1)
    #expect(
      unknown.stderr == "Error: no Chromium profile named 'Nobody' (profiles: 'Work', 'Person 1')\n"
    )
    for arguments in [
      ["--from-browser", "opera"], ["--from-browser", "firefox", "cookies.txt"],
      ["--from-browser", "firefox", "--format", "firefox"], ["cookies.txt", "--profile", "x"],
    ] {
      let usage = try await sandbox.run(["cookies", "import"] + arguments)
      #expect(usage.status == 64, "\(arguments): \(usage)")
    }
  }
}
