import Foundation

extension HTMLDocument {
  /// The first `<meta name=theme-color>` with a non-empty `content` whose
  /// `media` is absent or matches (HTML §4.2.5.5).
  static func themeColor(_ metas: [HTMLScan.Attributes]) -> String? {
    for meta in metas where meta["name"]?.trimmingASCIIWhitespace.asciiLowercased == "theme-color" {
      if let media = meta["media"], !mediaMatchesHeadlessScreen(media) { continue }
      let color = meta["content"]?.trimmingASCIIWhitespace ?? ""
      if !color.isEmpty { return String(color) }
    }
    return nil
  }

  /// Whether a media query list matches the environment a headless loader
  /// reports: a screen in the light colour scheme. Queries it cannot evaluate
  /// (widths, resolutions) do not match, so an unconditional entry wins.
  static func mediaMatchesHeadlessScreen(_ media: String) -> Bool {
    let query = HTMLText.strippingAndCollapsingWhitespace(media.asciiLowercased)
    switch query {
    case "", "all", "screen", "(prefers-color-scheme: light)", "(prefers-color-scheme:light)",
      "screen and (prefers-color-scheme: light)":
      return true
    default:
      return false
    }
  }

  /// The `<meta>` entries and the non-stylesheet `<link>` elements.
  static func metadata(_ scan: HTMLScan, resolver: HTMLURLResolver) -> HTMLMetadata {
    var entries: [HTMLMetadata.Entry] = []
    for meta in scan.metas {
      guard let content = meta["content"] else { continue }
      for attribute in [HTMLMetadata.Entry.Attribute.name, .property, .httpEquiv, .itemprop] {
        guard let key = meta[attribute.rawValue]?.trimmingASCIIWhitespace, !key.isEmpty else {
          continue
        }
        entries.append(.init(attribute: attribute, key: key.asciiLowercased, content: content))
      }
    }
    var links: [HTMLLink] = []
    for link in scan.links {
      let relations = HTMLText.lowercasedTokens(link["rel"] ?? "")
      guard !relations.contains("stylesheet"), !relations.isEmpty,
        let href = link["href"], !href.isEmpty, let url = resolver.resolve(href)
      else { continue }
      links.append(
        HTMLLink(
          relations: relations, url: url, type: link["type"], sizes: link["sizes"],
          media: link["media"]))
    }
    return HTMLMetadata(entries: entries, links: links)
  }

  /// The subresources, in tree order, each (kind, URL) once.
  static func subresources(_ scan: HTMLScan, resolver: HTMLURLResolver) -> [HTMLSubresource] {
    var found: [HTMLSubresource] = []
    var seen: Set<HTMLSubresource> = []
    func add(_ kind: HTMLSubresource.Kind, _ reference: String?) {
      guard let reference, !reference.trimmingASCIIWhitespace.isEmpty,
        let (url, record) = resolver.resolveWithRecord(reference)
      else { return }
      let subresource = HTMLSubresource(kind: kind, url: url, record: record)
      if seen.insert(subresource).inserted { found.append(subresource) }
    }
    for (tag, attributes) in scan.fetchingElements {
      switch tag {
      case .img:
        add(.image, imageSource(attributes))
      case .link:
        // Alternate stylesheets are not applied, so a headless loader skips them.
        let relations = HTMLText.lowercasedTokens(attributes["rel"] ?? "")
        if relations.contains("stylesheet"), !relations.contains("alternate") {
          add(.stylesheet, attributes["href"])
        }
      case .script where isFetchedScript(attributes):
        add(.script, attributes["src"])
      case .iframe where attributes["srcdoc"] == nil:
        add(.iframe, attributes["src"])
      default:
        break
      }
    }
    return found
  }

  /// The image an `<img>` fetches at a device pixel ratio of 1: the `1x` (or
  /// descriptor-less) candidate of `srcset`, else `src`, else the first
  /// candidate (HTML §4.8.4.3 "select an image source", simplified).
  static func imageSource(_ attributes: HTMLScan.Attributes) -> String? {
    let candidates = attributes["srcset"].map(SourceSet.candidates) ?? []
    if let oneX = candidates.first(where: { $0.descriptors.isEmpty || $0.descriptors == ["1x"] }) {
      return oneX.url
    }
    if let source = attributes["src"], !source.isEmpty { return source }
    return candidates.first?.url
  }

  /// Whether a `<script src>` is fetched by a browser with module support:
  /// a classic script with a JavaScript MIME type (or none), or a module;
  /// not `nomodule`, not a data block (`type=text/template`...).
  static func isFetchedScript(_ attributes: HTMLScan.Attributes) -> Bool {
    guard attributes["nomodule"] == nil else { return false }
    let type = attributes["type"].map { String($0.trimmingASCIIWhitespace.asciiLowercased) } ?? ""
    return type.isEmpty || type == "module" || javaScriptMIMETypes.contains(type)
  }

  /// The JavaScript MIME type essences (MIME Sniffing §4.6).
  static let javaScriptMIMETypes: Set<String> = [
    "application/ecmascript", "application/javascript", "application/x-ecmascript",
    "application/x-javascript", "text/ecmascript", "text/javascript", "text/javascript1.0",
    "text/javascript1.1", "text/javascript1.2", "text/javascript1.3", "text/javascript1.4",
    "text/javascript1.5", "text/jscript", "text/livescript", "text/x-ecmascript",
    "text/x-javascript",
  ]
}
