// MigrationEmbedder: the build tool behind the EmbedMigrations plugin.
//
// Usage: MigrationEmbedder OUTPUT.swift ENUM FOLDER [PLANNED-NAME...]
//
// Reads every file of FOLDER (the package's Migrations/), checks their names -- NNNN_name.sql, NNNN four digits counting 0001, 0002,
// ... without gaps or duplicates, name of lowercase letters, digits and
// underscores -- and writes OUTPUT.swift declaring
// `package enum ENUM { package static let all: [Migration] }` (one enum per
// engine: `EmbeddedMigrations` for SQLite's `Migrations/`,
// `EmbeddedPostgreSQLMigrations` for `Migrations/PostgreSQL/`)
// with each file's SQL as an escaped string literal. Files named README*, and
// folders (another engine's), are ignored. Any problem is reported as `error: ...` on stderr and fails the
// build. PLANNED-NAME lists the files the plugin saw when SwiftPM planned the
// build; a file missing from it gets a warning (see the plugin's note on
// re-planning).

import Foundation

/// How messages name the folder: `Migrations` or `Migrations/<engine>`.
nonisolated(unsafe) var label = "Migrations"

/// A migration file that passed the checks.
struct MigrationFile {
  var version: Int
  var name: String
  var fileName: String
  var sql: String
}

/// Writes `message` as a build error.
func report(_ message: String) {
  FileHandle.standardError.write(Data("error: \(message)\n".utf8))
}

/// Why a file name is not a migration file name.
struct NameProblem: Error {
  var reason: String
}

/// The version and name of `fileName`, or why it is not a migration file name.
func parse(fileName: String) -> Result<(version: Int, name: String), NameProblem> {
  let expected = "expected NNNN_name.sql (four digits, then lowercase letters, digits, _)"
  guard fileName.hasSuffix(".sql") else {
    return .failure(NameProblem(reason: "not a .sql file; \(expected)"))
  }
  let stem = fileName.dropLast(4)
  let digits = stem.prefix(4)
  guard digits.count == 4, digits.allSatisfy({ ("0"..."9").contains($0) }),
    let version = Int(digits), stem.dropFirst(4).first == "_"
  else {
    return .failure(
      NameProblem(reason: "the name does not start with a 4-digit version; \(expected)"))
  }
  let name = stem.dropFirst(5)
  let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_")
  guard !name.isEmpty, name.allSatisfy({ allowed.contains($0) }) else {
    return .failure(
      NameProblem(reason: "the name after the version is empty or not [a-z0-9_]; \(expected)"))
  }
  guard version > 0 else { return .failure(NameProblem(reason: "versions start at 0001")) }
  return .success((version, String(name)))
}

/// `sql` as the body of a Swift multi-line string literal: backslashes and
/// quotes escaped, line feeds kept, other control characters as `\u{…}`.
func escaped(_ sql: String) -> String {
  var result = ""
  for scalar in sql.unicodeScalars {
    switch scalar {
    case "\\": result += "\\\\"
    case "\"": result += "\\\""
    case "\n", "\t": result.unicodeScalars.append(scalar)
    case "\r": result += "\\r"
    case _ where scalar.value < 0x20 || scalar.value == 0x7F:
      result += "\\u{\(String(scalar.value, radix: 16))}"
    default: result.unicodeScalars.append(scalar)
    }
  }
  return result
}

/// Reads and checks every migration file, or reports every problem.
func loadMigrations(_ paths: [String]) -> [MigrationFile]? {
  var files: [MigrationFile] = []
  var failed = false
  for path in paths {
    let fileName = URL(fileURLWithPath: path).lastPathComponent
    if fileName.hasPrefix("README") { continue }
    switch parse(fileName: fileName) {
    case .failure(let problem):
      report("\(label)/\(fileName): \(problem.reason)")
      failed = true
    case .success(let parsed):
      guard let data = FileManager.default.contents(atPath: path) else {
        report("\(label)/\(fileName): cannot read the file")
        failed = true
        continue
      }
      var bytes = [UInt8](data)
      // A UTF-8 byte order mark is not SQL: drop it.
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
      guard let sql = String(validating: bytes, as: UTF8.self) else {
        report("\(label)/\(fileName): the file is not valid UTF-8")
        failed = true
        continue
      }
      guard sql.contains(where: { !$0.isWhitespace }) else {
        report("\(label)/\(fileName): the file is empty")
        failed = true
        continue
      }
      files.append(
        MigrationFile(version: parsed.version, name: parsed.name, fileName: fileName, sql: sql))
    }
  }
  files.sort { ($0.version, $0.fileName) < ($1.version, $1.fileName) }
  for (index, file) in files.enumerated() where file.version != index + 1 {
    let previous = index > 0 ? files[index - 1] : nil
    if let previous, previous.version == file.version {
      report(
        "\(label)/\(file.fileName): version \(file.version) is also used by "
          + "\(previous.fileName); each version appears once")
    } else {
      report(
        "\(label)/\(file.fileName): expected version \(String(format: "%04d", index + 1)) "
          + "here; versions count 0001, 0002, ... without gaps")
    }
    failed = true
    break
  }
  return failed ? nil : files
}

/// The generated Swift source.
func render(_ files: [MigrationFile], enumName: String) -> String {
  var source = """
    // Generated by MigrationEmbedder (the EmbedMigrations build-tool plugin)
    // from the package's \(label)/ folder. Do not edit: edit the .sql files.

    /// The schema migrations shipped in this binary, oldest first: the
    /// package's `\(label)/NNNN_name.sql` files, embedded at build time.
    package enum \(enumName) {
      /// Every migration, by increasing version.
      package static let all: [Migration] = [

    """
  for file in files {
    source += """
          // \(label)/\(file.fileName)
          Migration(
            version: \(file.version), name: "\(file.name)",
            sql: \"\"\"
      \(escaped(file.sql))
      \"\"\"),

      """
  }
  source += """
      ]
    }

    """
  return source
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3 else {
  report("usage: MigrationEmbedder OUTPUT.swift ENUM FOLDER [PLANNED-NAME...]")
  exit(64)
}
let output = arguments[0]
let enumName = arguments[1]
let folder = URL(fileURLWithPath: arguments[2], isDirectory: true)
let planned = Set(arguments.dropFirst(3))
if folder.lastPathComponent != "Migrations" { label = "Migrations/" + folder.lastPathComponent }
let names: [String]
do {
  names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    .filter { name in
      var isFolder: ObjCBool = false
      let path = folder.appendingPathComponent(name).path
      return !name.hasPrefix(".")
        && !(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
          && isFolder.boolValue)
    }.sorted()
} catch {
  report("cannot list the migrations folder \(folder.path): \(error)")
  exit(1)
}
for name in names where !planned.contains(name) {
  FileHandle.standardError.write(
    Data(
      ("warning: \(label)/\(name) is new since SwiftPM planned this build; later edits to "
        + "it rebuild only after a re-plan (`touch Package.swift`)\n").utf8))
}
guard let files = loadMigrations(names.map { folder.appendingPathComponent($0).path }) else {
  exit(1)
}
do {
  try Data(render(files, enumName: enumName).utf8).write(
    to: URL(fileURLWithPath: output), options: .atomic)
} catch {
  report("cannot write \(output): \(error)")
  exit(1)
}
