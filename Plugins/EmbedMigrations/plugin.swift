import Foundation
import PackagePlugin

/// Embeds the package's `Migrations/NNNN_name.sql` files (SQLite's) into the
/// target it is applied to, as `EmbeddedMigrations.all`, and
/// `Migrations/PostgreSQL/NNNN_name.sql` as `EmbeddedPostgreSQLMigrations.all`,
/// at build time.
///
/// The SQL becomes string literals in generated Swift code compiled into the
/// target, so a copied binary carries its migrations (no resource bundle).
/// `MigrationEmbedder` validates the file names and fails the build with a
/// clear message.
///
/// Inputs: the folder itself and each file in it. Editing a file re-runs the
/// command; adding one changes the folder, which re-runs it too (the tool
/// reads the folder, not only the files listed here).
///
/// SwiftPM limitation: SwiftPM re-plans (calls this plugin again) only when
/// `Package.swift` or a target's folder structure changes, and `Migrations/`
/// is not a target folder. So after removing or renaming a migration file
/// the build stops with "missing inputs", and edits to a newly added file are
/// noticed only after a re-plan; `touch Package.swift` forces one.
@main
struct EmbedMigrations: BuildToolPlugin {
  /// Each engine's folder and the enum its migrations become.
  static let engines = [
    (folder: "Migrations", enumName: "EmbeddedMigrations"),  // SQLite
    (folder: "Migrations/PostgreSQL", enumName: "EmbeddedPostgreSQLMigrations"),
  ]

  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    try Self.engines.map { engine in
      let folder = context.package.directoryURL.appending(
        path: engine.folder, directoryHint: .isDirectory)
      let names = try FileManager.default
        .contentsOfDirectory(atPath: folder.path(percentEncoded: false))
        .filter { name in
          var isFolder: ObjCBool = false
          let path = folder.appending(path: name).path(percentEncoded: false)
          return !name.hasPrefix(".")
            && !(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
              && isFolder.boolValue)
        }
        .sorted()
      let files = names.map { folder.appending(path: $0, directoryHint: .notDirectory) }
      let output = context.pluginWorkDirectoryURL.appending(
        path: engine.enumName + ".swift", directoryHint: .notDirectory)
      return .buildCommand(
        displayName: "Embedding \(engine.folder) into \(target.name)",
        executable: try context.tool(named: "MigrationEmbedder").url,
        arguments: [
          output.path(percentEncoded: false), engine.enumName, folder.path(percentEncoded: false),
        ] + names,
        inputFiles: [folder] + files,
        outputFiles: [output])
    }
  }
}
