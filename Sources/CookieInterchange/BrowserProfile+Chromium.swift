import Foundation

extension BrowserProfile {
  /// The profiles in a Chromium user-data folder: every subfolder with a
  /// cookie database, named as the folder's `Local State` JSON names them
  /// (`profile.info_cache.<folder>.name`), the default being
  /// `profile.last_used` (else `Default`), as Chromium's
  /// `ProfileAttributesStorage` and `ProfileManager` keep them.
  static func chromiumProfiles(in root: String, browser: WebBrowser) -> [BrowserProfile] {
    let state = localState(root + "/Local State")
    let cache = state?["info_cache"] as? [String: Any] ?? [:]
    let lastUsed = state?["last_used"] as? String ?? "Default"
    return subfolders(of: root).compactMap { folder in
      guard let database = cookieDatabase(inFolder: root + "/" + folder) else { return nil }
      let name = (cache[folder] as? [String: Any])?["name"] as? String
      return BrowserProfile(
        browser: browser, name: name.flatMap { $0.isEmpty ? nil : $0 } ?? folder,
        folder: root + "/" + folder, database: database, isDefault: folder == lastUsed)
    }
  }

  /// The `profile` object of a `Local State` file; `nil` when there is none
  /// or it is not JSON (at most 16 MiB are read).
  private static func localState(_ path: String) -> [String: Any]? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: 16 << 20),
      let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { return nil }
    return root["profile"] as? [String: Any]
  }
}
