import Foundation

/// The document's metadata a headless loader can offer in place of a script
/// API: `<meta name|property|http-equiv|itemprop content>` pairs in tree
/// order, and the `<link>` elements (icons, canonical...).
public struct HTMLMetadata: Sendable, Hashable {
  /// One `<meta>` element with a `content`.
  public struct Entry: Sendable, Hashable {
    /// Which attribute names the entry.
    public enum Attribute: String, Sendable, Hashable {
      /// `name` (standard metadata names, `twitter:*`).
      case name
      /// `property` (Open Graph, RDFa: `og:title`).
      case property
      /// `http-equiv` (pragma directives such as `refresh`).
      case httpEquiv = "http-equiv"
      /// `itemprop` (microdata).
      case itemprop
    }

    /// The attribute the key comes from.
    public let attribute: Attribute
    /// The key, ASCII lower-cased (`description`, `og:title`).
    public let key: String
    /// The `content` value, as written.
    public let content: String

    /// Creates an entry.
    public init(attribute: Attribute, key: String, content: String) {
      self.attribute = attribute
      self.key = key
      self.content = content
    }
  }

  /// The `<meta>` entries, in tree order.
  public let entries: [Entry]
  /// The `<link>` elements that are not stylesheets, in tree order.
  public let links: [HTMLLink]

  /// Creates metadata.
  public init(entries: [Entry], links: [HTMLLink]) {
    self.entries = entries
    self.links = links
  }

  /// The `content` of the first `<meta>` whose `name` or `property` is `key`
  /// (ASCII case-insensitive).
  public subscript(key: String) -> String? {
    let key = key.asciiLowercased
    return entries.first { $0.key == key && ($0.attribute == .name || $0.attribute == .property) }?
      .content
  }

  /// `<meta name=description>`.
  public var description: String? { self["description"] }

  /// The icons (`rel=icon`, `shortcut icon`, `apple-touch-icon`), in tree order.
  public var icons: [HTMLLink] { links.filter(\.isIcon) }

  /// The first `<link rel=canonical href>`.
  public var canonicalURL: URL? { links.first { $0.relations.contains("canonical") }?.url }
}
