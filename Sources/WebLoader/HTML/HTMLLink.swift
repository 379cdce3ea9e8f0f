import Foundation

/// A `<link>` element other than a stylesheet (icons, `canonical`,
/// `alternate`, `manifest`...): its link types and resolved `href`.
public struct HTMLLink: Sendable, Hashable {
  /// The `rel` tokens, lower-case (`["icon"]`, `["shortcut", "icon"]`).
  public let relations: [String]
  /// The resolved `href`.
  public let url: URL
  /// The `type` attribute (`image/png`), if any.
  public let type: String?
  /// The `sizes` attribute (`32x32`, `any`), if any.
  public let sizes: String?
  /// The `media` attribute, if any.
  public let media: String?

  /// Creates a link.
  public init(relations: [String], url: URL, type: String?, sizes: String?, media: String?) {
    self.relations = relations
    self.url = url
    self.type = type
    self.sizes = sizes
    self.media = media
  }

  /// Whether the link is an icon (`icon`, `shortcut icon`, `apple-touch-icon`).
  public var isIcon: Bool {
    relations.contains {
      $0 == "icon" || $0 == "apple-touch-icon" || $0 == "apple-touch-icon-precomposed"
    }
  }
}
