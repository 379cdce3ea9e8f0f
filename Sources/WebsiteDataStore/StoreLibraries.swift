internal import COpenSSL
internal import CPSL
internal import CSQLite

/// The versions of the C libraries the stores run on, as loaded (not as
/// compiled against): what `sitedata --version` reports, and what a bug
/// report needs.
package enum StoreLibraries {
  /// `SQLite 3.40.1`, `OpenSSL 3.0.17 1 Jul 2025`, `libpsl 0.21.2`, in that
  /// order.
  package static var versions: [String] {
    [
      "SQLite " + String(cString: sqlite3_libversion()),
      String(cString: OpenSSL_version(OPENSSL_VERSION)),
      PublicSuffixDomainFacts.libraryVersion,
    ]
  }
}
