import CookieCore
import Foundation
import WebsiteDataStore

/// An HTML document as a headless loader reads it: decoded in the right
/// encoding, parsed by a real HTML5 parser (Gumbo, the HTML Standard's
/// tokenizer and tree construction), and reduced to what a program needs
/// without a script engine: the title, theme colour, base URL, metadata,
/// the subresources the document asks for, and its forms.
///
/// There is no DOM and no JavaScript: the tree is read once and freed.
///
/// Decoding follows the HTML Standard's encoding sniffing algorithm
/// (§13.2.3.2): a byte order mark, else the `charset` of the `Content-Type`,
/// else the first `<meta charset>` or `<meta http-equiv=content-type>` in the
/// first 1024 bytes, else windows-1252.
public struct HTMLDocument: Sendable {
  /// Where the document's encoding came from.
  public enum EncodingSource: Sendable, Hashable {
    /// A UTF-8 or UTF-16 byte order mark (which wins over everything).
    case byteOrderMark
    /// The `charset` parameter of the response's `Content-Type`.
    case transportLayer
    /// The caller named it (`load(_:mimeType:characterEncoding:baseURL:)`).
    case override
    /// A `<meta>` found by the prescan of the first 1024 bytes.
    case metaPrescan
    /// Nothing declared one: windows-1252.
    case defaultEncoding
    /// The document was given as text.
    case text
  }

  /// The document's URL (after redirects).
  public let url: URL
  /// ``url`` as a WHATWG URL record, when it is http(s): the top-level URL
  /// and initiator of its subresources' cookie contexts.
  let record: URLRecord?
  /// The encoding the bytes were decoded with.
  public let encoding: HTMLEncoding
  /// Where ``encoding`` came from.
  public let encodingSource: EncodingSource
  /// The document's source, decoded (what a browser's "view source" shows).
  public let html: String
  /// `document.title`: the first `<title>`'s text with ASCII whitespace
  /// stripped and collapsed (HTML §3.1.4); empty when there is none.
  public let title: String
  /// The document base URL: the first `<base href>` resolved against
  /// ``url`` when it is valid (and not `data:` or `javascript:`), else ``url``
  /// (HTML §2.4.1 "frozen base URL").
  public let baseURL: URL
  /// The page's theme colour (HTML §4.2.5.5 "theme-color"): the trimmed
  /// `content` of the first `<meta name=theme-color>` whose `media`, if any,
  /// matches a light-scheme screen; as written (`#336699`, `rebeccapurple`).
  public let themeColor: String?
  /// The `<meta>` and `<link>` metadata.
  public let metadata: HTMLMetadata
  /// The images, scripts, stylesheets and iframes the document fetches, in
  /// tree order, each URL once per kind.
  public let subresources: [HTMLSubresource]
  /// The document's forms, in tree order, each with its controls.
  public let forms: [HTMLForm]
  /// The form this document posts by itself as soon as it loads, as an
  /// OpenID Connect `form_post` response or a SAML POST binding does: the
  /// document's only form, holding nothing but hidden fields (and buttons,
  /// such as a `<noscript>` "Continue"), with a `<body onload>` or an
  /// inline script that calls `submit()`. No script runs here: submit it
  /// with ``WebPage/submit(_:using:)`` to do what the browser would.
  public var selfSubmittingForm: HTMLForm? {
    guard submitsOnLoad, forms.count == 1, let form = forms.first else { return nil }
    let hidden = form.controls.filter { $0.kind == .input(.hidden) }
    guard !hidden.isEmpty, form.controls.allSatisfy({ $0.kind == .input(.hidden) || $0.isButton })
    else { return nil }
    return form
  }
  /// Whether a script of the document calls `submit()` on load.
  let submitsOnLoad: Bool
  /// The first valid `<meta http-equiv=refresh>` (HTML §4.2.5.3), which a
  /// ``WebPage`` follows as a client redirect.
  public let refresh: HTMLRefresh?

  /// Decodes and parses a document received as bytes.
  ///
  /// - Parameters:
  ///   - bytes: The body, as received.
  ///   - url: The document's URL (the last hop's).
  ///   - contentType: The response's `Content-Type`, whose `charset` counts.
  ///   - encoding: An encoding that overrides every declaration but a BOM.
  ///   - domainFacts: IDNA for resolving URLs; libidn2 unless given.
  /// - Throws: ``HTMLDocumentError`` when the encoding's decoder is missing
  ///   from the C library, or the parser runs out of memory. Malformed HTML
  ///   is never an error.
  public init(
    bytes: some Collection<UInt8>, url: URL, contentType: String? = nil,
    encoding: HTMLEncoding? = nil,
    domainFacts: any DomainFacts = PublicSuffixDomainFacts.shared
  ) throws(HTMLDocumentError) {
    let bytes = Array(bytes)
    var sniffed = HTMLEncodingSniffer.sniff(bytes, contentType: contentType)
    if let encoding, sniffed.source != .byteOrderMark {
      sniffed = (encoding, .override, 0)
    }
    let text = try sniffed.encoding.decode(bytes[sniffed.bomLength...])
    try self.init(
      text: text, url: url, encoding: sniffed.encoding, source: sniffed.source,
      domainFacts: domainFacts)
  }

  /// Parses a document given as text (`load(html:baseURL:)`).
  public init(
    html: String, url: URL, domainFacts: any DomainFacts = PublicSuffixDomainFacts.shared
  ) throws(HTMLDocumentError) {
    try self.init(text: html, url: url, encoding: .utf8, source: .text, domainFacts: domainFacts)
  }

  private init(
    text: String, url: URL, encoding: HTMLEncoding, source: EncodingSource,
    domainFacts: any DomainFacts
  ) throws(HTMLDocumentError) {
    let scan = try GumboTree(utf8: text).scan()
    self.url = url
    self.encoding = encoding
    encodingSource = source
    html = text
    title = scan.title.map(HTMLText.strippingAndCollapsingWhitespace) ?? ""
    let documentResolver = HTMLURLResolver(base: url, domainToASCII: domainFacts.asciiDomain)
    record = documentResolver.baseRecord
    let base =
      scan.baseHref.flatMap(documentResolver.resolve).flatMap { base in
        ["data", "javascript"].contains(base.scheme?.lowercased() ?? "") ? nil : base
      } ?? url
    baseURL = base
    let resolver = HTMLURLResolver(base: base, domainToASCII: domainFacts.asciiDomain)
    themeColor = Self.themeColor(scan.metas)
    metadata = Self.metadata(scan, resolver: resolver)
    subresources = Self.subresources(scan, resolver: resolver)
    submitsOnLoad = scan.scriptSubmitsAForm
    refresh =
      scan.metas.lazy.filter {
        $0["http-equiv"]?.trimmingASCIIWhitespace.asciiLowercased == "refresh"
      }.compactMap { meta in
        meta["content"].flatMap {
          HTMLRefresh(content: $0, documentURL: url, resolve: resolver.resolve)
        }
      }.first
    forms = HTMLForm.forms(
      scan, documentURL: url, resolver: resolver, documentEncoding: encoding)
  }
}
