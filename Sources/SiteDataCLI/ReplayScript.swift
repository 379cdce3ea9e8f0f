import Foundation
import WebsiteData

/// A parsed `sitedata replay` script: the directives, each with its line
/// number, checked completely before anything runs.
///
/// The format (one directive a line; lines end at LF only):
///
///     version 2                    optional, first: the format version (1 or 2)
///     now 2026-01-01T00:00:00Z     set the clock (RFC 3339)
///     advance 90s                  move the clock forward (s, m, h, d)
///     policy block-third-party     the third-party cookie policy
///     response <url> [nav|sub] [site=<url>] [from=<url>] [method=<M>]
///     Set-Cookie: <raw value>      header lines of the response
///     request <url> [nav|sub] [site=<url>] [from=<url>] [method=<M>]
///     expect <Cookie header>       compare with the last request's header
///
/// Version 2 (a script starting with `version 2`) adds tracking prevention:
/// `frame`, `chain=` and `source=` on `response` and `request` lines, which
/// record third-party loads, redirects and bounces as the loader does, and
/// the directives `interaction`, `grant`, `revoke`, `tracking`,
/// `run-tracking-prevention`, `expect-prevalent`, `expect-not-prevalent`,
/// `expect-removed` and `expect-not-removed` (see ``Directive``). A script
/// without the header is version 1, run exactly as before.
///
/// Parsing reads bytes, not text: header values are handed to the cookie
/// parser exactly as written (not necessarily UTF-8; tabs, a bare CR or any
/// other byte kept), with only the optional whitespace around them removed, as
/// HTTP does (RFC 9110 §5.5), and `expect` values are compared byte for byte.
/// No line is refused for bytes that are not UTF-8: in URLs they read as
/// U+FFFD, as a browser decodes them. A URL whose scheme never gets cookies
/// (`ftp:`, `file:`, `data:`, `blob:`...) is a request without a Cookie
/// header and a response whose `Set-Cookie` lines store nothing.
struct ReplayScript: Sendable {
  /// The largest script read, in bytes (64 MiB).
  static let maximumSize = 64 << 20
  /// The longest line, in bytes (1 MiB, as a cookies.txt line).
  static let maximumLineLength = 1 << 20

  /// The format versions this program reads.
  static let versions = 1...2

  /// What a directive does.
  enum Directive: Sendable {
    /// `now`: set the clock.
    case now(Date)
    /// `advance`: move the clock forward by this many seconds.
    case advance(seconds: Double)
    /// `policy`: switch the third-party cookie policy.
    case policy(ThirdPartyCookiePolicy)
    /// `response`: store the `Set-Cookie` values received for the hop;
    /// `nil` for a URL whose scheme never gets cookies (nothing is stored).
    case response(Hop?, setCookies: [SetCookieLine])
    /// `request`: compute (and print) the Cookie header for the hop;
    /// `nil` for a URL whose scheme never gets cookies (no header).
    case request(Hop?)
    /// `expect`: the last request's Cookie header must be these bytes
    /// (`nil`: no header at all); raw, not necessarily UTF-8.
    case expect([UInt8]?)
    /// `interaction` (version 2): the user interacted with the site as a
    /// top-level site.
    case interaction(site: URLRecord)
    /// `grant` (version 2): the embedded site asks for storage access under
    /// the top-level site; a refusal is an unmet expectation.
    case grant(embedded: URLRecord, topLevel: URLRecord)
    /// `revoke` (version 2): removes the embedded site's grant under the
    /// top-level site (under every one when `nil`).
    case revoke(embedded: URLRecord, topLevel: URLRecord?)
    /// `tracking on|off` (version 2): switches tracking prevention.
    case tracking(isEnabled: Bool)
    /// `run-tracking-prevention [dry-run]` (version 2): website data removal.
    case runTrackingPrevention(dryRun: Bool)
    /// `expect-prevalent` / `expect-not-prevalent` (version 2): the site's
    /// classification must be this.
    case expectPrevalent(site: URLRecord, isPrevalent: Bool)
    /// `expect-removed` / `expect-not-removed` (version 2): whether the last
    /// `run-tracking-prevention` removed (or, dry, would remove) the site's
    /// data.
    case expectRemoved(site: URLRecord, isRemoved: Bool)
  }

  /// The hop a `response` or `request` line describes.
  struct Hop: Sendable {
    /// The cookie context: URL, top-level site, initiator (`from=`),
    /// method, redirect chain (`chain=`), source (`source=`).
    var context: CookieRequestContext
    /// `frame`: the subresource is a frame's document (tracking prevention
    /// counts it under the top-level site as a frame).
    var isFrame = false
  }

  /// One `Set-Cookie` header line of a response block.
  struct SetCookieLine: Sendable {
    /// The line number, from 1.
    var line: Int
    /// The field value, raw bytes, optional whitespace removed.
    var value: [UInt8]
  }

  /// A directive and where it stands.
  struct Step: Sendable {
    /// The line number, from 1.
    var line: Int
    /// The directive.
    var directive: Directive
  }

  /// The format version: 1 unless the script starts with `version 2`.
  let version: Int
  /// The directives, in order.
  let steps: [Step]

  /// Parses a whole script.
  ///
  /// - Parameters:
  ///   - bytes: the script's bytes.
  ///   - parseURL: parses a URL (a store's WHATWG parser, with its IDNA).
  /// - Throws: ``ReplayScriptError`` at the first line that does not follow
  ///   the format.
  init(parsing bytes: [UInt8], parseURL: (String) throws(URLParseError) -> URLRecord)
    throws(ReplayScriptError)
  {
    var parser = ReplayScriptParser()
    let lines = bytes.split(separator: ASCII.lineFeed, omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() {
      try parser.parse(line, number: index + 1, parseURL: parseURL)
    }
    (version, steps) = parser.finish()
  }
}

/// Why a replay script is malformed, and where.
struct ReplayScriptError: Error, Hashable, CustomStringConvertible {
  /// The line number, from 1.
  var line: Int
  /// What is wrong, for humans.
  var reason: String

  var description: String { "\(line): \(reason)" }
}
