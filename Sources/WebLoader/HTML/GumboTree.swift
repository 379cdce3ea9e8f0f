internal import CGumbo

/// A document parsed by Gumbo (the HTML Standard's tree construction, §13.2.6):
/// owns the `GumboOutput` and frees it in `deinit`. Not `Sendable`: one
/// owner, used inside one synchronous call.
final class GumboTree {
  private let output: UnsafeMutablePointer<GumboOutput>

  /// Parses UTF-8 text. Gumbo never fails on malformed HTML (the standard
  /// defines a tree for every input); it returns nil only when out of memory.
  init(utf8 text: String) throws(HTMLDocumentError) {
    var text = text
    let output = text.withUTF8 { buffer in
      buffer.withMemoryRebound(to: CChar.self) { characters in
        websitedata_gumbo_parse(characters.baseAddress, characters.count)
      }
    }
    guard let output else {
      throw HTMLDocumentError(.parserFailed, "the HTML parser returned no document")
    }
    self.output = output
  }

  deinit { websitedata_gumbo_destroy(output) }

  /// Walks the tree in tree order without recursion (hostile documents nest
  /// deeply), skipping `<template>` contents (inert, HTML §4.12.3).
  func scan() -> HTMLScan {
    var scan = HTMLScan()
    var stack: [UnsafeMutablePointer<GumboNode>] = [output.pointee.document]
    while let node = stack.popLast() {
      switch node.pointee.type {
      case GUMBO_NODE_DOCUMENT:
        push(node.pointee.v.document.children, onto: &stack)
      case GUMBO_NODE_ELEMENT:
        let element = node.pointee.v.element
        if element.tag_namespace == GUMBO_NAMESPACE_HTML {
          visit(element, into: &scan)
        }
        push(element.children, onto: &stack)
      default:
        break  // text, comments, and templates (whose contents are inert)
      }
    }
    return scan
  }

  /// Records what the page needs from one HTML element.
  private func visit(_ element: GumboElement, into scan: inout HTMLScan) {
    switch element.tag {
    case GUMBO_TAG_TITLE where scan.title == nil:
      scan.title = Self.text(of: element)
    case GUMBO_TAG_BASE where scan.baseHref == nil:
      scan.baseHref = Self.attributes(of: element)["href"]
    case GUMBO_TAG_META:
      scan.metas.append(Self.attributes(of: element))
    case GUMBO_TAG_LINK:
      let attributes = Self.attributes(of: element)
      scan.links.append(attributes)
      scan.fetchingElements.append((.link, attributes))
    case GUMBO_TAG_IMG:
      scan.fetchingElements.append((.img, Self.attributes(of: element)))
    case GUMBO_TAG_SCRIPT:
      scan.fetchingElements.append((.script, Self.attributes(of: element)))
    case GUMBO_TAG_IFRAME:
      scan.fetchingElements.append((.iframe, Self.attributes(of: element)))
    default:
      break
    }
  }

  /// Pushes a node's children in reverse, so that they pop in tree order.
  private func push(_ children: GumboVector, onto stack: inout [UnsafeMutablePointer<GumboNode>]) {
    guard let data = children.data else { return }
    for index in (0..<Int(children.length)).reversed() {
      if let child = data[index] { stack.append(child.assumingMemoryBound(to: GumboNode.self)) }
    }
  }

  /// The concatenated text children of an element (`<title>` holds text only:
  /// it is parsed as RCDATA).
  private static func text(of element: GumboElement) -> String {
    var text = ""
    guard let data = element.children.data else { return text }
    for index in 0..<Int(element.children.length) {
      guard let child = data[index]?.assumingMemoryBound(to: GumboNode.self) else { continue }
      let type = child.pointee.type
      if type == GUMBO_NODE_TEXT || type == GUMBO_NODE_WHITESPACE || type == GUMBO_NODE_CDATA,
        let characters = child.pointee.v.text.text
      {
        text += String(cString: characters)
      }
    }
    return text
  }

  /// An element's attributes; Gumbo lower-cases HTML attribute names and
  /// keeps the first of a repeated name, as the tokenizer does.
  private static func attributes(of element: GumboElement) -> HTMLScan.Attributes {
    var attributes: HTMLScan.Attributes = [:]
    guard let data = element.attributes.data else { return attributes }
    for index in 0..<Int(element.attributes.length) {
      guard let attribute = data[index]?.assumingMemoryBound(to: GumboAttribute.self),
        let name = attribute.pointee.name, let value = attribute.pointee.value
      else { continue }
      let key = String(cString: name)
      if attributes[key] == nil { attributes[key] = String(cString: value) }
    }
    return attributes
  }
}
