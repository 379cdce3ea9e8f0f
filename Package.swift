// swift-tools-version:6.0
import PackageDescription

/// Settings every target of ours shares, set in this one place (Swift 6
/// language mode comes from `swiftLanguageModes` below). Warnings are errors
/// in our code: `.ci/run` builds with `-Xswiftc -warnings-as-errors`; a
/// compiler flag set here would keep other packages from depending on this
/// one by version.
let strictSettings: [SwiftSetting] = []

let package = Package(
  name: "WebsiteData",
  products: [
    .library(name: "WebsiteData", targets: ["WebsiteData"]),
    .library(name: "CookieCore", targets: ["CookieCore"]),
    .library(name: "WHATWGURL", targets: ["WHATWGURL"]),
    .library(name: "WebsiteDataStore", targets: ["WebsiteDataStore"]),
    .library(name: "WebLoader", targets: ["WebLoader"]),
    .library(name: "CookieInterchange", targets: ["CookieInterchange"]),
    .executable(name: "sitedata", targets: ["SiteDataCLI"]),
    .executable(name: "sitedata-bench", targets: ["SiteDataBench"]),
  ],
  targets: [
    // System-library shims (module map + tiny static-inline wrappers).
    .systemLibrary(
      name: "CPSL", path: "Sources/CPSL", pkgConfig: "libpsl",
      providers: [.apt(["libpsl-dev"])]),
    .systemLibrary(
      name: "CIDN2", path: "Sources/CIDN2", pkgConfig: "libidn2",
      providers: [.apt(["libidn2-dev"])]),
    .systemLibrary(
      name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(
      name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl",
      providers: [.apt(["libssl-dev"])]),
    .systemLibrary(
      name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"])]),
    // PostgreSQL's client library: the store shared by a fleet.
    .systemLibrary(
      name: "CPostgres", path: "Sources/CPostgres", pkgConfig: "libpq",
      providers: [.apt(["libpq-dev"])]),
    // glibc's stub resolver (libc6-dev): the loader's own name server.
    .systemLibrary(name: "CResolv", path: "Sources/CResolv"),
    .systemLibrary(
      name: "CGumbo", path: "Sources/CGumbo", pkgConfig: "gumbo",
      providers: [.apt(["libgumbo-dev"])]),
    // The CLI's only: Chromium's keyring password (`--from-browser`).
    .systemLibrary(
      name: "CSecret", path: "Sources/CSecret", pkgConfig: "libsecret-1",
      providers: [.apt(["libsecret-1-dev"])]),

    // The WHATWG URL Standard's URL record and host, pure Swift (IDNA
    // injected): the one URL type of the stores and the loader.
    .target(name: "WHATWGURL", swiftSettings: strictSettings),
    // Pure Swift cookie semantics: no C, no files, no clock.
    .target(name: "CookieCore", dependencies: ["WHATWGURL"], swiftSettings: strictSettings),
    // The async stores and the domain facts (libpsl, libidn2).
    .target(
      name: "WebsiteDataStore",
      dependencies: ["CookieCore", "CPSL", "CIDN2", "COpenSSL", "CSQLite", "CPostgres"],
      swiftSettings: strictSettings,
      plugins: ["EmbedMigrations"]),
    // A JSON value model and RFC 3339 timestamps, shared by the cookie files
    // and the CLI's output.
    .target(name: "TextFormats", swiftSettings: strictSettings),
    // Cookie files and browser databases (Netscape, JSON, Chromium, Firefox).
    .target(
      name: "CookieInterchange",
      dependencies: ["CookieCore", "WebsiteDataStore", "TextFormats", "COpenSSL"],
      swiftSettings: strictSettings),
    // libcurl with a store plugged in: the multi loop, hops, redirects, HSTS;
    // and the headless page (HTML parsed by Gumbo).
    .target(
      name: "WebLoader",
      dependencies: ["WebsiteDataStore", "CookieCore", "CCurl", "CGumbo", "COpenSSL", "CResolv"],
      swiftSettings: strictSettings),
    // The umbrella module users import.
    .target(
      name: "WebsiteData",
      dependencies: ["CookieCore", "WebsiteDataStore", "WebLoader", "CookieInterchange"],
      swiftSettings: strictSettings),
    .executableTarget(
      name: "SiteDataCLI", dependencies: ["WebsiteData", "WebLoader", "TextFormats", "CSecret"],
      swiftSettings: strictSettings),
    .executableTarget(
      name: "SiteDataBench", dependencies: ["WebsiteData"],
      swiftSettings: strictSettings),
    // Test helper: writes cookies to a persistent store until killed, printing
    // an `ack` line after each acknowledged write (PersistentStoreCrashTests).
    .executableTarget(
      name: "StoreCrashWriter", dependencies: ["WebsiteData"], swiftSettings: strictSettings),

    // Build-time embedding of the top-level Migrations/*.sql into WebsiteDataStore.
    .executableTarget(name: "MigrationEmbedder", swiftSettings: strictSettings),
    .plugin(
      name: "EmbedMigrations", capability: .buildTool(),
      dependencies: ["MigrationEmbedder"]),

    // glibc's GNU spawning extras (addchdir_np, addclosefrom_np, pipe2,
    // memfd_create), which Swift's Glibc module does not declare.
    .systemLibrary(name: "CSpawn", path: "Tests/CSpawn"),
    // Child processes for tests: posix_spawn, and waitpid on each child's own
    // pid from a dedicated thread (not Foundation's Process).
    .target(
      name: "ProcessHarness", dependencies: ["CSpawn"], path: "Tests/ProcessHarness",
      swiftSettings: strictSettings),
    .testTarget(
      name: "ProcessHarnessTests", dependencies: ["ProcessHarness"],
      swiftSettings: strictSettings),

    // Temporary folders for tests, removed at the latest when the test
    // process exits: tests leave nothing in $TMPDIR (checked by .ci/run).
    .target(
      name: "TestScratch", path: "Tests/TestScratch", swiftSettings: strictSettings),
    // Shared by the test targets that launch built executables.
    .target(
      name: "BuiltProductLocator", path: "Tests/BuiltProductLocator",
      swiftSettings: strictSettings),
    .testTarget(
      name: "CookieCoreTests", dependencies: ["CookieCore", "WHATWGURL"],
      swiftSettings: strictSettings),
    .testTarget(
      name: "WebsiteDataStoreTests",
      dependencies: [
        "WebsiteDataStore", "CookieCore", "CookieInterchange", "TextFormats", "StoreCrashWriter",
        "BuiltProductLocator", "TestScratch", "ProcessHarness", "LoopbackTestServer",
      ],
      exclude: ["Fixtures"],
      swiftSettings: strictSettings),
    // The loopback HTTP/HTTPS test server (test_server.py, a test CA made
    // with openssl), shared by the loader's and the CLI's tests.
    .target(
      name: "LoopbackTestServer", dependencies: ["TestScratch", "ProcessHarness"],
      path: "Tests/LoopbackTestServer",
      exclude: ["test_server.py", "dns_server.py", "postgres_server.py"],
      swiftSettings: strictSettings),
    // Real libcurl against the loopback test server.
    .testTarget(
      name: "WebLoaderTests",
      dependencies: [
        "WebLoader", "WebsiteDataStore", "CookieCore", "CookieInterchange", "CCurl",
        "LoopbackTestServer", "TestScratch", "ProcessHarness",
      ],
      swiftSettings: strictSettings),
    .testTarget(
      name: "SiteDataCLITests",
      dependencies: [
        "SiteDataCLI", "WebsiteData", "StoreCrashWriter", "BuiltProductLocator",
        "LoopbackTestServer", "TestScratch", "ProcessHarness",
      ],
      exclude: ["Support/cookie_echo_server.py", "Support/terminal_dialogue.py"],
      swiftSettings: strictSettings),
  ],
  swiftLanguageModes: [.v6]
)
