/// What the page code reads from a parsed tree, before any URL is resolved:
/// the title text, the first `<base href>`, the `<meta>` and `<link>`
/// elements, and the elements that fetch subresources, in tree order.
struct HTMLScan: Sendable {
  /// The attributes of one element, names lower-case (the tokenizer's),
  /// the first of a repeated name kept.
  typealias Attributes = [String: String]

  /// The text of the first `<title>` in the HTML namespace, as written.
  var title: String?
  /// The `href` of the first `<base>` that has one.
  var baseHref: String?
  /// Every `<meta>` element's attributes.
  var metas: [Attributes] = []
  /// Every `<link>` element's attributes.
  var links: [Attributes] = []
  /// The elements that may fetch, in tree order: `img`, `script`, `iframe`
  /// and `link` (the stylesheets among them).
  var fetchingElements: [(tag: FetchingTag, attributes: Attributes)] = []

  /// The element names ``fetchingElements`` holds.
  enum FetchingTag: Sendable { case img, script, iframe, link }
}
