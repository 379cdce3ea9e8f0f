import Foundation

extension BrowserProfile {
  /// The profiles in a Firefox folder, as its `profiles.ini` lists them
  /// (`[ProfileN]`: `Name`, `Path`, `IsRelative`, `Default=1`; `[Install…]`:
  /// `Default`, the profile an installation opens, which Firefox 67 and
  /// later prefer to `Default=1`); those without a `cookies.sqlite` are left
  /// out. Without a `profiles.ini`, every subfolder with a `cookies.sqlite`,
  /// by its folder name.
  static func firefoxProfiles(in root: String) -> [BrowserProfile] {
    guard let sections = iniSections(root + "/profiles.ini") else {
      return subfolders(of: root).compactMap { folder in
        cookieDatabase(inFolder: root + "/" + folder).map {
          BrowserProfile(
            browser: .firefox, name: folder, folder: root + "/" + folder, database: $0,
            isDefault: false)
        }
      }
    }
    let installDefaults = Set(
      sections.filter { $0.name.hasPrefix("Install") }.compactMap { $0.values["Default"] })
    return sections.filter { $0.name.hasPrefix("Profile") }.compactMap { section in
      guard let path = section.values["Path"], !path.isEmpty else { return nil }
      let folder = section.values["IsRelative"] == "0" ? path : root + "/" + path
      guard let database = cookieDatabase(inFolder: folder) else { return nil }
      let isDefault =
        installDefaults.isEmpty ? section.values["Default"] == "1" : installDefaults.contains(path)
      return BrowserProfile(
        browser: .firefox, name: section.values["Name"] ?? (path as NSString).lastPathComponent,
        folder: folder, database: database, isDefault: isDefault)
    }
  }

  /// One `[name]` section of an INI file and its `key=value` lines.
  struct INISection {
    var name: String
    var values: [String: String] = [:]
  }

  /// The sections of the INI file at `path` (blank lines and `;`/`#`
  /// comments skipped; at most 1 MiB read); `nil` when it cannot be read.
  static func iniSections(_ path: String) -> [INISection]? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: 1 << 20) else { return nil }
    var sections: [INISection] = []
    for rawLine in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
      let line = rawLine.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix(";") || line.hasPrefix("#") { continue }
      if line.hasPrefix("[") && line.hasSuffix("]") {
        sections.append(INISection(name: String(line.dropFirst().dropLast())))
      } else if let equals = line.firstIndex(of: "="), !sections.isEmpty {
        let key = line[..<equals].trimmingCharacters(in: .whitespaces)
        sections[sections.count - 1].values[key] = line[line.index(after: equals)...]
          .trimmingCharacters(in: .whitespaces)
      }
    }
    return sections
  }
}
