/// What the page code reads from a parsed tree, before any URL is resolved:
/// the title text, the first `<base href>`, the `<meta>` and `<link>`
/// elements, the elements that fetch subresources, and the forms with their
/// controls, in tree order.
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

  /// Whether the document's scripts would submit a form on load: the
  /// `<body onload>` or an inline `<script>` calls `submit()` (no script
  /// runs; this is what a self-posting page looks like).
  var scriptSubmitsAForm = false
  /// Every `<form>` element's attributes, in tree order.
  var forms: [Attributes] = []
  /// Every form control (`input`, `button`, `select`, `textarea`), in tree
  /// order, with what decides its form owner.
  var controls: [Control] = []

  /// The element names ``fetchingElements`` holds.
  enum FetchingTag: Sendable { case img, script, iframe, link }

  /// One form control as the tree has it.
  struct Control: Sendable {
    enum Tag: Sendable { case input, button, select, textarea }
    var tag: Tag
    var attributes: Attributes
    /// The index in ``HTMLScan/forms`` of the nearest `<form>` ancestor.
    var ancestorForm: Int?
    /// Whether a `<datalist>` ancestor bars it from submission (HTML §4.10.21.4).
    var inDatalist: Bool
    /// Whether a disabled `<fieldset>` ancestor disables it (outside the
    /// fieldset's first `<legend>`, HTML §4.10.18.2 "actually disabled").
    var disabledByFieldset: Bool
    /// A `<textarea>`'s text (its default value).
    var text: String = ""
    /// A `<select>`'s options, in tree order.
    var options: [Option] = []
  }

  /// One `<option>` of a `<select>`.
  struct Option: Sendable {
    var attributes: Attributes
    /// The option's text, as written (HTML §4.10.10 "text").
    var text: String
    /// Whether an `<optgroup disabled>` ancestor disables it.
    var inDisabledGroup: Bool
  }
}
