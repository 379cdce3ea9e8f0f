import CookieCore
import Foundation
import Testing

@testable import CookieInterchange
@testable import TextFormats
@testable import WebsiteDataStore

/// ``JSONCookieFile``: the lossless format, its schema, and bad entries
/// reported by index.
@Suite struct JSONCookieFileTests {
  static let now = TestSupport.fixedNow

  static func read(_ text: String) async throws(WebsiteDataStoreError) -> CookieImportResult {
    try await JSONCookieFile.read(Array(text.utf8), now: now)
  }

  static func document(_ entries: String) -> String {
    #"{"format": "websitedata-cookies", "version": 1, "cookies": [\#(entries)]}"#
  }

  static let full = Cookie(
    name: "sid", value: "a \"quoted\" \\ value\u{1}é", domain: "www.example.com", isHostOnly: false,
    path: "/app", expiresAt: Date(timeIntervalSince1970: 1_800_000_000.25),
    createdAt: Date(timeIntervalSince1970: 1_700_000_000.123456),
    lastAccessedAt: Date(timeIntervalSince1970: 1_700_000_100),
    lastUpdatedAt: Date(timeIntervalSince1970: 1_700_000_050.5), isSecure: true, isHTTPOnly: true,
    sameSite: .none,
    partitionKey: CookiePartitionKey(topLevelSite: "https://news.test", hasCrossSiteAncestor: true),
    sourceScheme: .secure, sourcePort: 8443, source: .http)

  @Test func everyFieldSurvivesARoundTrip() async throws {
    let session = Cookie(
      name: "", value: "nameless", domain: "127.0.0.1", isHostOnly: true, path: "/",
      expiresAt: nil, createdAt: Date(timeIntervalSince1970: 0), lastAccessedAt: Self.now,
      isSecure: false, isHTTPOnly: false, sameSite: .unspecified, partitionKey: nil,
      sourceScheme: .unset, sourcePort: nil, source: .api)
    let text = JSONCookieFile.write([Self.full, session])
    let result = try await JSONCookieFile.read(Array(text.utf8), now: Self.now)
    #expect(result.issues.isEmpty)
    #expect(result.cookies == [Self.full, session])
    // Writing what was read gives the same bytes.
    #expect(JSONCookieFile.write(result.cookies) == text)
  }

  @Test func aDocumentOverTheLimitIsRefusedUnparsed() async throws {
    let bytes = [UInt8](repeating: 0x20, count: JSONCookieFile.maximumDocumentSize + 1)
    await #expect(throws: WebsiteDataStoreError(.corrupt, "the document is larger than 256 MiB")) {
      try await JSONCookieFile.read(bytes, now: Self.now)
    }
  }

  @Test func theSchemaIsStable() {
    let text = JSONCookieFile.write([Self.full])
    #expect(
      text == """
        {
          "format": "websitedata-cookies",
          "version": 1,
          "cookies": [
            {
              "name": "sid",
              "value": "a \\"quoted\\" \\\\ value\\u0001é",
              "domain": "www.example.com",
              "hostOnly": false,
              "path": "/app",
              "expires": "2027-01-15T08:00:00.250000Z",
              "created": "2023-11-14T22:13:20.123456Z",
              "lastAccessed": "2023-11-14T22:15:00Z",
              "lastUpdated": "2023-11-14T22:14:10.500000Z",
              "secure": true,
              "httpOnly": true,
              "sameSite": "none",
              "partitionKey": "https://news.test",
              "partitionCrossSiteAncestor": true,
              "sourceScheme": "secure",
              "sourcePort": 8443,
              "source": "http"
            }
          ]
        }

        """)
  }

  @Test func onlyTheIdentityIsRequired() async throws {
    let result = try await Self.read(
      Self.document(#"{"name": "a", "value": "1", "domain": "example.com", "path": "/"}"#))
    let cookie = try #require(result.cookies.first)
    #expect(cookie.isHostOnly && cookie.isSession && !cookie.isSecure && !cookie.isHTTPOnly)
    #expect(cookie.sameSite == .unspecified && cookie.partitionKey == nil)
    #expect(cookie.createdAt == Self.now && cookie.lastAccessedAt == Self.now)
    #expect(cookie.sourceScheme == .unset && cookie.sourcePort == nil && cookie.source == .api)
  }

  @Test(arguments: [
    (#"[]"#, "an entry must be an object, not an array"),
    (#"{"value": "1", "domain": "e.com", "path": "/"}"#, #""name" is missing"#),
    (
      #"{"name": 1, "value": "1", "domain": "e.com", "path": "/"}"#,
      #""name" must be a string, not a number"#
    ),
    (
      #"{"name": "a", "value": "1", "domain": ".e.com", "path": "/"}"#,
      #""domain" must be an ASCII host name"#
    ),
    (
      #"{"name": "a", "value": "1", "domain": "e.com", "path": "x"}"#,
      #""path" must start with '/'"#
    ),
    (
      #"{"name": "a", "value": "1", "domain": "e.com", "path": "/", "secure": "yes"}"#,
      #""secure" must be true or false, not a string"#
    ),
    (
      #"{"name": "a", "value": "1", "domain": "e.com", "path": "/", "expires": "tomorrow"}"#,
      #""expires" must be an RFC 3339 time"#
    ),
    (
      #"{"name": "a", "value": "1", "domain": "e.com", "path": "/", "sameSite": "loose"}"#,
      #""sameSite" must be one of unspecified, none, lax, strict"#
    ),
    (
      #"{"name": "a", "value": "1", "domain": "e.com", "path": "/", "partitionKey": "news.test"}"#,
      #""partitionKey" must be a top-level site"#
    ),
    (
      #"{"name": "a", "value": "1", "domain": "e.com", "path": "/", "sourcePort": 70000}"#,
      #""sourcePort" must be a port number"#
    ),
    (
      #"{"name": "a", "value": "1", "domain": "e.com", "path": "/", "source": "browser"}"#,
      #""source" must be one of http, script, api"#
    ),
  ])
  func badEntriesAreReportedByIndexAndSkipped(entry: String, reason: String) async throws {
    let good = #"{"name": "ok", "value": "1", "domain": "e.com", "path": "/"}"#
    let result = try await Self.read(Self.document([good, entry, good].joined(separator: ",")))
    #expect(result.cookies.map(\.name) == ["ok", "ok"])
    #expect(result.issues.count == 1)
    #expect(result.issues.first?.location == "cookies[1]")
    #expect(result.issues.first?.reason.hasPrefix(reason) == true, "\(result.issues)")
  }

  @Test(arguments: [
    ("", WebsiteDataStoreError.Code.corrupt),
    ("{\"format\": \"websitedata-cookies\",\n \"version\": 1,\n \"cookies\": [,]}", .corrupt),
    ("[]", .corrupt),
    (#"{"format": "other", "version": 1, "cookies": []}"#, .corrupt),
    (#"{"format": "websitedata-cookies", "version": "1", "cookies": []}"#, .corrupt),
    (#"{"format": "websitedata-cookies", "version": 1, "cookies": {}}"#, .corrupt),
    (#"{"format": "websitedata-cookies", "version": 2, "cookies": []}"#, .newerSchema),
  ])
  func wholeFileFailures(text: String, code: WebsiteDataStoreError.Code) async {
    await #expect(throws: WebsiteDataStoreError(code, "")) { try await Self.read(text) }
  }

  @Test func syntaxErrorsGiveThePlaceNotTheText() async {
    let text = "{\"format\": \"websitedata-cookies\",\n\"cookies\": [SECRET]}"
    do {
      _ = try await Self.read(text)
      Issue.record("expected an error")
    } catch {
      #expect(error.message.hasPrefix("the file is not valid JSON"))
      #expect(!error.message.contains("SECRET"))
    }
  }

  @Test(arguments: [
    ("2026-01-01T00:00:00Z", 1_767_225_600.0),
    ("2026-01-01t00:00:00z", 1_767_225_600.0),
    ("2026-01-01T01:30:00+01:30", 1_767_225_600.0),
    ("2025-12-31T23:00:00-01:00", 1_767_225_600.0),
    ("2026-01-01T00:00:00.5Z", 1_767_225_600.5),
    ("1969-12-31T23:59:59Z", -1.0),
    ("2024-02-29T12:00:00Z", 1_709_208_000.0),
  ])
  func timestampsParse(text: String, seconds: Double) {
    #expect(RFC3339Timestamp.parse(text) == Date(timeIntervalSince1970: seconds))
  }

  @Test(arguments: [
    "2026-01-01", "2026-01-01T00:00:00", "2026-13-01T00:00:00Z", "2025-02-29T00:00:00Z",
    "2026-01-01T24:00:00Z", "2026-01-01T00:00:60Z", "2026-01-01T00:00:00.Z", "x",
  ])
  func notTimestamps(text: String) {
    #expect(RFC3339Timestamp.parse(text) == nil)
  }

  @Test(arguments: [
    (0.0, "1970-01-01T00:00:00Z"),
    (-0.5, "1969-12-31T23:59:59.500000Z"),
    (1_709_208_000.000001, "2024-02-29T12:00:00.000001Z"),
    (-62_135_596_800.0, "0001-01-01T00:00:00Z"),
    (253_402_300_799.0, "9999-12-31T23:59:59Z"),
  ])
  func timestampsFormat(seconds: Double, text: String) {
    #expect(RFC3339Timestamp.format(Date(timeIntervalSince1970: seconds)) == text)
  }
}
