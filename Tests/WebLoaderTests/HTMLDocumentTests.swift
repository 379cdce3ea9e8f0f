import Foundation
import Testing

@testable import WebLoader

/// The encoding sniffing, decoding and extraction of `HTMLDocument`, on real
/// HTML bytes in several encodings.
@Suite struct HTMLDocumentTests {
  static let page = URL(string: "https://www.example.com/dir/page.html")!

  /// One row: the body bytes, the Content-Type, and what must come out.
  struct EncodingCase: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    let contentType: String?
    let encoding: String
    let source: HTMLDocument.EncodingSource
    let title: String
    var testDescription: String { name }
  }

  static func bytes(_ parts: Any...) -> [UInt8] {
    parts.flatMap { part -> [UInt8] in
      if let text = part as? String { return Array(text.utf8) }
      return (part as? [Int] ?? []).map { UInt8($0) }
    }
  }

  static let encodingCases: [EncodingCase] = [
    .init(
      name: "UTF-8 by <meta charset>",
      bytes: bytes(
        "<meta charset=utf-8><title>Caf", [0xC3, 0xA9], " ", [0xE2, 0x98, 0x95], "</title>"),
      contentType: "text/html", encoding: "UTF-8", source: .metaPrescan, title: "Café ☕"),
    .init(
      name: "nothing declared: windows-1252",
      bytes: bytes("<title>Caf", [0xE9], " ", [0x80], " ", [0x93], "q", [0x94], "</title>"),
      contentType: "text/html", encoding: "windows-1252", source: .defaultEncoding,
      title: "Café € “q”"),
    .init(
      name: "Content-Type iso-8859-1 is windows-1252",
      bytes: bytes("<title>", [0x80], [0xFC], "</title>"),
      contentType: "text/html; charset=ISO-8859-1", encoding: "windows-1252",
      source: .transportLayer, title: "€ü"),
    .init(
      name: "ISO-8859-2 by <meta http-equiv=content-type>",
      bytes: bytes(
        "<head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-2\">",
        "<title>", [0xA3, 0xF3, 0x64, 0xBC], "</title>"),
      contentType: "text/html", encoding: "ISO-8859-2", source: .metaPrescan, title: "Łódź"),
    .init(
      name: "Shift_JIS by <meta charset>",
      bytes: bytes(
        "<!doctype html><META CHARSET='Shift_JIS'><title>", [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA],
        "</title>"),
      contentType: nil, encoding: "Shift_JIS", source: .metaPrescan, title: "日本語"),
    .init(
      name: "GBK by Content-Type label gb2312",
      bytes: bytes("<title>", [0xD6, 0xD0, 0xCE, 0xC4], "</title>"),
      contentType: "text/html;charset=\"gb2312\"", encoding: "GBK", source: .transportLayer,
      title: "中文"),
    .init(
      name: "EUC-JP by <meta content> with quotes in the label",
      bytes: bytes(
        "<meta http-equiv=content-type content='text/html; charset=\"euc-jp\"'><title>",
        [0xC6, 0xFC, 0xCB, 0xDC], "</title>"),
      contentType: nil, encoding: "EUC-JP", source: .metaPrescan, title: "日本"),
    .init(
      name: "a UTF-8 BOM wins over the Content-Type",
      bytes: bytes([0xEF, 0xBB, 0xBF], "<title>", [0xC3, 0xA9], "</title>"),
      contentType: "text/html; charset=windows-1252", encoding: "UTF-8", source: .byteOrderMark,
      title: "é"),
    .init(
      name: "a UTF-16LE BOM",
      bytes: [0xFF, 0xFE]
        + Array("<title>é</title>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
      contentType: nil, encoding: "UTF-16LE", source: .byteOrderMark, title: "é"),
    .init(
      name: "a UTF-16BE BOM",
      bytes: [0xFE, 0xFF]
        + Array("<title>日</title>".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] },
      contentType: nil, encoding: "UTF-16BE", source: .byteOrderMark, title: "日"),
    .init(
      name: "the Content-Type wins over <meta>",
      bytes: bytes("<meta charset=shift_jis><title>", [0xC3, 0xA9], "</title>"),
      contentType: "text/html; charset=utf-8", encoding: "UTF-8", source: .transportLayer,
      title: "é"),
    .init(
      name: "an unknown Content-Type label falls through to <meta>",
      bytes: bytes("<meta charset=latin2><title>", [0xA3], "</title>"),
      contentType: "text/html; charset=no-such-thing", encoding: "ISO-8859-2",
      source: .metaPrescan, title: "Ł"),
    .init(
      name: "a <meta> inside a comment does not count",
      bytes: bytes("<!-- <meta charset=shift_jis> --><title>", [0xE9], "</title>"),
      contentType: nil, encoding: "windows-1252", source: .defaultEncoding, title: "é"),
    .init(
      name: "<meta content> without http-equiv=content-type does not count",
      bytes: bytes("<meta content='text/html; charset=iso-8859-2'><title>", [0xA3], "</title>"),
      contentType: nil, encoding: "windows-1252", source: .defaultEncoding, title: "£"),
    .init(
      name: "<meta charset=utf-16> means UTF-8",
      bytes: bytes("<meta charset=utf-16><title>", [0xC3, 0xA9], "</title>"),
      contentType: nil, encoding: "UTF-8", source: .metaPrescan, title: "é"),
    .init(
      name: "<meta charset=x-user-defined> means windows-1252",
      bytes: bytes("<meta charset=x-user-defined><title>", [0x80], "</title>"),
      contentType: nil, encoding: "windows-1252", source: .metaPrescan, title: "€"),
    .init(
      name: "a <meta> after the first 1024 bytes is not seen",
      bytes: bytes(
        "<!-- ", String(repeating: "x", count: 1100), " -->", "<meta charset=utf-8><title>", [0xE9],
        "</title>"),
      contentType: nil, encoding: "windows-1252", source: .defaultEncoding, title: "é"),
    .init(
      name: "attributes of another tag are skipped, not read as a <meta>",
      bytes: bytes(
        "<div title='<meta charset=shift_jis>'><meta charset=\"koi8-r\"><title>", [0xF0], "</title>"
      ),
      contentType: nil, encoding: "KOI8-R", source: .metaPrescan, title: "П"),
    .init(
      name: "invalid UTF-8 becomes U+FFFD",
      bytes: bytes("<meta charset=utf-8><title>a", [0xFF], "b", [0xC3], "</title>"),
      contentType: nil, encoding: "UTF-8", source: .metaPrescan, title: "a\u{FFFD}b\u{FFFD}"),
    .init(
      name: "unmapped Shift_JIS bytes become U+FFFD and decoding goes on",
      bytes: bytes("<meta charset=sjis><title>", [0x93, 0xFA, 0xFF, 0x41], "</title>"),
      contentType: nil, encoding: "Shift_JIS", source: .metaPrescan, title: "日\u{FFFD}A"),
  ]

  @Test(arguments: encodingCases)
  func sniffsAndDecodes(_ row: EncodingCase) throws {
    let document = try HTMLDocument(bytes: row.bytes, url: Self.page, contentType: row.contentType)
    #expect(document.encoding.name == row.encoding)
    #expect(document.encodingSource == row.source)
    #expect(document.title == row.title)
  }

  @Test func callerEncodingOverridesDeclarationsButNotABOM() throws {
    let latin2 = Self.bytes("<meta charset=utf-8><title>", [0xA3], "</title>")
    let document = try HTMLDocument(bytes: latin2, url: Self.page, encoding: .iso8859_2)
    #expect(document.title == "Ł" && document.encodingSource == .override)
    let withBOM = Self.bytes([0xEF, 0xBB, 0xBF], "<title>", [0xC5, 0x81], "</title>")
    let bom = try HTMLDocument(bytes: withBOM, url: Self.page, encoding: .iso8859_2)
    #expect(bom.title == "Ł" && bom.encodingSource == .byteOrderMark)
    #expect(HTMLEncoding(.shiftJIS) == .shiftJIS && HTMLEncoding(.isoLatin1) == .windows1252)
  }

  @Test func everyEncodingOfTheStandardDecodes() throws {
    // Each decoder exists in this C library and decodes ASCII as ASCII.
    for encoding in HTMLEncoding.all
    where encoding != .replacement && encoding != .utf16BE && encoding != .utf16LE {
      #expect(try encoding.decode(Array("<p>abc".utf8)[...]) == "<p>abc", "\(encoding)")
    }
    #expect(try HTMLEncoding.replacement.decode([0x41][...]) == "\u{FFFD}")
    #expect(HTMLEncoding(label: "  LATIN1\n")?.name == "windows-1252")
    #expect(HTMLEncoding(label: "utf-7") == nil)
  }

  @Test func titleIsStrippedCollapsedAndFromTheHTMLNamespace() throws {
    let html = """
      <html><head></head><body><svg><title>svg title</title></svg>
      <title>
        A  &amp;\tB\n C </title><title>second</title></body></html>
      """
    #expect(try HTMLDocument(html: html, url: Self.page).title == "A & B C")
    #expect(try HTMLDocument(html: "<p>no title", url: Self.page).title == "")
    #expect(
      try HTMLDocument(html: "<template><title>t</title></template>", url: Self.page).title == "")
  }

  @Test func baseURLIsTheFirstValidBaseHref() throws {
    let document = try HTMLDocument(
      html:
        "<base target=_top><base href='/other/'><base href='https://ignored.test/'><img src=a.png>",
      url: Self.page)
    #expect(document.baseURL.absoluteString == "https://www.example.com/other/")
    #expect(
      document.subresources.map(\.url.absoluteString) == ["https://www.example.com/other/a.png"])
    let script = try HTMLDocument(html: "<base href='javascript:alert(1)'>", url: Self.page)
    #expect(script.baseURL == Self.page)
    let none = try HTMLDocument(html: "<p>", url: Self.page)
    #expect(none.baseURL == Self.page)
  }

  @Test func themeColorSkipsNonMatchingMediaAndEmptyContent() throws {
    let html = """
      <meta name=theme-color content="">
      <meta name=theme-color media="(prefers-color-scheme: dark)" content="#000000">
      <meta name="THEME-COLOR" content="  #336699 ">
      <meta name=theme-color content="red">
      """
    #expect(try HTMLDocument(html: html, url: Self.page).themeColor == "#336699")
    let light = "<meta name=theme-color media='(prefers-color-scheme: light)' content=white>"
    #expect(try HTMLDocument(html: light, url: Self.page).themeColor == "white")
    #expect(try HTMLDocument(html: "<p>", url: Self.page).themeColor == nil)
  }

  @Test func metadataEntriesAndLinks() throws {
    let html = """
      <head>
      <meta name="Description" content="A page about things.">
      <meta property="og:title" content="Things">
      <meta http-equiv="refresh" content="30">
      <meta name="robots">
      <link rel="shortcut icon" href="/favicon.ico">
      <link rel=apple-touch-icon sizes=180x180 href="touch.png" type=image/png>
      <link rel=canonical href="https://www.example.com/canonical">
      <link rel=stylesheet href=style.css>
      </head>
      """
    let metadata = try HTMLDocument(html: html, url: Self.page).metadata
    #expect(metadata.description == "A page about things.")
    #expect(metadata["OG:TITLE"] == "Things")
    #expect(metadata["refresh"] == nil)
    #expect(metadata.entries.map(\.key) == ["description", "og:title", "refresh"])
    #expect(metadata.entries.map(\.attribute) == [.name, .property, .httpEquiv])
    #expect(
      metadata.icons.map(\.url.absoluteString) == [
        "https://www.example.com/favicon.ico", "https://www.example.com/dir/touch.png",
      ])
    #expect(metadata.icons.last?.sizes == "180x180" && metadata.icons.last?.type == "image/png")
    #expect(metadata.canonicalURL?.absoluteString == "https://www.example.com/canonical")
    #expect(metadata.links.count == 3)
  }

  @Test func subresourcesInTreeOrderResolvedLikeABrowser() throws {
    let html = """
      <link rel=stylesheet href="/css/site.css">
      <link rel="alternate stylesheet" href="/css/alt.css" title=alt>
      <script src="app.js"></script>
      <script type=module src="https://cdn.test/mod.js"></script>
      <script nomodule src="legacy.js"></script>
      <script type="text/template" src="template.html"></script>
      <script>inline()</script>
      <img src="  a.png  ">
      <img src="fallback.png" srcset="small.png 0.5x, one.png 1x, big.png 2x">
      <img srcset="w.png 300w">
      <img src="">
      <img src="a.png">
      <img src="http://bücher.example\\img\\b.png">
      <img src="data:image/gif;base64,R0lGOD">
      <img src="http://exa mple.test/">
      <iframe src="//frames.test/f.html#top"></iframe>
      <iframe srcdoc="<img src=x.png>" src="ignored.html"></iframe>
      <iframe></iframe>
      <template><img src="inert.png"></template>
      <svg><script href="svg.js"></script><image href="svg.png"/></svg>
      <link rel=stylesheet href="/css/site.css">
      """
    let found = try HTMLDocument(html: html, url: Self.page).subresources
    let expected: [(HTMLSubresource.Kind, String)] = [
      (.stylesheet, "https://www.example.com/css/site.css"),
      (.script, "https://www.example.com/dir/app.js"),
      (.script, "https://cdn.test/mod.js"),
      (.image, "https://www.example.com/dir/a.png"),
      (.image, "https://www.example.com/dir/one.png"),
      (.image, "https://www.example.com/dir/w.png"),
      (.image, "http://xn--bcher-kva.example/img/b.png"),
      (.image, "data:image/gif;base64,R0lGOD"),
      (.iframe, "https://frames.test/f.html#top"),
    ]
    #expect(found.map(\.kind) == expected.map(\.0))
    #expect(found.map(\.url.absoluteString) == expected.map(\.1))
  }

  @Test func relativeURLsOfACustomSchemeDocument() throws {
    let document = try HTMLDocument(
      html: "<img src=../pic.png><script src='https://cdn.test/x.js'></script>",
      url: URL(string: "app://bundle/pages/index.html")!)
    #expect(
      document.subresources.map(\.url.absoluteString) == [
        "app://bundle/pic.png", "https://cdn.test/x.js",
      ])
  }

  @Test func deeplyNestedAndMalformedInputParses() throws {
    let deep = String(repeating: "<div>", count: 20_000) + "<img src=deep.png>"
    let document = try HTMLDocument(html: deep, url: Self.page)
    #expect(document.subresources.count == 1)
    let junk = try HTMLDocument(
      bytes: [0x3C, 0x00, 0xFF, 0x3C, 0x74, 0x69, 0x74, 0x6C, 0x65, 0x3E, 0x00, 0x41],
      url: Self.page)
    #expect(junk.title == "\u{FFFD}A")
    #expect(try HTMLDocument(bytes: [], url: Self.page).title == "")
  }

  struct SourceSetCase: Sendable, CustomTestStringConvertible {
    let input: String
    let urls: [String]
    let descriptors: [[String]]
    var testDescription: String { input }
  }

  @Test(arguments: [
    SourceSetCase(
      input: "a.png 1x, b.png 2x", urls: ["a.png", "b.png"], descriptors: [["1x"], ["2x"]]),
    SourceSetCase(input: " , a.png,b.png 100w", urls: ["a.png,b.png"], descriptors: [["100w"]]),
    SourceSetCase(
      input: "a.png, b.png 100w", urls: ["a.png", "b.png"], descriptors: [[], ["100w"]]),
    SourceSetCase(
      input: "data:image/png;base64,AA== 2X, x.png", urls: ["data:image/png;base64,AA==", "x.png"],
      descriptors: [["2x"], []]),
    SourceSetCase(
      input: "a.png (x, y) 1x, b.png", urls: ["a.png", "b.png"],
      descriptors: [["(x, y)", "1x"], []]),
    SourceSetCase(input: "", urls: [], descriptors: []),
  ])
  func sourceSetCandidates(_ row: SourceSetCase) {
    let candidates = SourceSet.candidates(row.input)
    #expect(candidates.map(\.url) == row.urls)
    #expect(candidates.map(\.descriptors) == row.descriptors)
  }

  @Test func mimeTypeParsing() {
    let type = MIMEType("Text/HTML ; Charset = \"utf-8\" ; charset=latin1; q=\"a\\\"b\"")
    #expect(type?.essence == "text/html")
    #expect(type?.isHTML == true)
    // "Charset " (with a space) is not a token, so the later `charset` counts.
    #expect(type?.charset == "latin1")
    let plain = MIMEType("text/html;charset=\"Shift_JIS\";CHARSET=utf-8")
    #expect(plain?.charset == "Shift_JIS")
    #expect(MIMEType("text/html; q=\"a\\\"b\"")?.parameter("q") == "a\"b")
    #expect(MIMEType("html") == nil)
    #expect(MIMEType("text/ht ml") == nil)
    #expect(MIMEType("/html") == nil)
  }
}
