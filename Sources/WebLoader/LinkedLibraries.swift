import WebsiteDataStore

/// The C libraries the loader and the stores run on, with the versions
/// loaded (not those compiled against): libcurl, SQLite, OpenSSL and libpsl.
public enum LinkedLibraries {
  /// One `name version` text each, e.g. `libcurl 7.88.1`.
  public static var versions: [String] {
    ["libcurl " + CurlLibrary.version] + StoreLibraries.versions
  }
}
