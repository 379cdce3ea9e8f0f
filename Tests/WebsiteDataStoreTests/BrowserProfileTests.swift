import CookieInterchange
import Foundation
import TestScratch
import Testing
import WebsiteDataStore

/// ``BrowserProfile`` discovery on folders laid out as the browsers lay
/// them out (the CLI's `FromBrowserCommandTests` import from them).
@Suite struct BrowserProfileTests {
  /// Makes `path` (a file, with its folders) under `root`.
  static func touch(_ root: String, _ path: String, _ text: String = "x") throws {
    let file = root + "/" + path
    try FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
  }

  @Test func firefoxAbsolutePathsTheSnapAndNoProfilesINI() throws {
    let folder = try TemporaryFolder("profiles")
    defer { folder.remove() }
    let home = folder.path
    // The package's folder: one absolute profile, marked Default=1, no
    // [Install] section; one listed profile without cookies.
    try Self.touch(home, "elsewhere/p1/cookies.sqlite")
    try Self.touch(
      home, ".mozilla/firefox/profiles.ini",
      "[Profile0]\nName=outside\nIsRelative=0\nPath=\(home)/elsewhere/p1\nDefault=1\n"
        + "; a comment\n[Profile1]\nName=empty\nIsRelative=1\nPath=empty\n")
    // The snap's folder, without a profiles.ini.
    try Self.touch(home, "snap/firefox/common/.mozilla/firefox/z.snap/cookies.sqlite")
    let found = BrowserProfile.profiles(of: .firefox, home: home, environment: [:])
    #expect(found.map(\.name) == ["outside", "z.snap"])
    #expect(found.map(\.isDefault) == [true, false])
    #expect(found[0].database == home + "/elsewhere/p1/cookies.sqlite")
    #expect(
      try BrowserProfile.profile(of: .firefox, named: nil, home: home, environment: [:]) == found[0]
    )
    #expect(
      try BrowserProfile.profile(of: .firefox, named: "z.snap", home: home, environment: [:])
        == found[1])
  }

  /// `$XDG_CONFIG_HOME` moves Chromium's folder, unless it is relative
  /// (the XDG spec says to ignore such a value); a `Local State` that is
  /// not JSON leaves folder names and `Default` as the default.
  @Test func chromiumConfigHomeAndADamagedLocalState() throws {
    let folder = try TemporaryFolder("profiles")
    defer { folder.remove() }
    let home = folder.path
    try Self.touch(home, "xdg/chromium/Default/Cookies")
    try Self.touch(home, "xdg/chromium/Profile 2/Network/Cookies")
    try Self.touch(home, "xdg/chromium/Local State", "{not json")
    try Self.touch(home, ".config/chromium/Profile 9/Cookies")
    let moved = BrowserProfile.profiles(
      of: .chromium, home: home, environment: ["XDG_CONFIG_HOME": home + "/xdg"])
    #expect(moved.map(\.name) == ["Default", "Profile 2"])
    #expect(moved.map(\.isDefault) == [true, false])
    #expect(moved[1].database == home + "/xdg/chromium/Profile 2/Network/Cookies")
    let relative = BrowserProfile.profiles(
      of: .chromium, home: home, environment: ["XDG_CONFIG_HOME": "xdg"])
    #expect(relative.map(\.name) == ["Profile 9"])
    // No profile is marked: the one whose database changed last.
    #expect(
      try BrowserProfile.profile(
        of: .chromium, named: nil, home: home, environment: ["XDG_CONFIG_HOME": "xdg"]
      ).name
        == "Profile 9")
    let error = #expect(throws: WebsiteDataStoreError.self) {
      try BrowserProfile.profile(of: .chrome, named: nil, home: home, environment: [:])
    }
    #expect(error?.code == .notFound)
  }
}
