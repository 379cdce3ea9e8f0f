import WebsiteData

/// What `sitedata fetch` makes of a page's body for `--json`: text when it
/// is text, so that it can be read as it is; otherwise the caller writes
/// its bytes in base64.
enum FetchBody {
  /// The body as text: an HTML document's source as its encoding decoded it
  /// (HTML §13.2.3.2: BOM, `charset`, `<meta>`, else windows-1252); any
  /// other body when it is valid UTF-8 (or ASCII), its `charset` (if any)
  /// says UTF-8 or ASCII, and its type is textual (`text/*`, JSON, XML,
  /// JavaScript, or none). `nil` for anything else: images, archives, text
  /// in another charset.
  static func text(of page: FetchOutcome.Page) -> String? {
    if let html = page.html { return html }
    let type = page.response.headers.first(named: "Content-Type").flatMap(MIMEType.init)
    if let charset = type?.charset?.lowercased(),
      !["utf-8", "utf8", "us-ascii", "ascii"].contains(charset)
    {
      return nil
    }
    guard type.map(isTextual) ?? true else { return nil }
    return String(validating: page.body, as: UTF8.self)
  }

  /// Whether a MIME type is one of text (MIME Sniffing §4.6's JavaScript,
  /// JSON and XML types, and `text/*`).
  static func isTextual(_ type: MIMEType) -> Bool {
    if type.type == "text" { return true }
    let subtype = type.subtype
    return ["json", "xml", "javascript", "ecmascript", "x-www-form-urlencoded"].contains(subtype)
      || subtype.hasSuffix("+json") || subtype.hasSuffix("+xml")
  }
}
