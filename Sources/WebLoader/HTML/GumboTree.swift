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

  /// Where an element sits, as form submission sees it: its nearest
  /// `<form>` ancestor, and the `<datalist>` and disabled `<fieldset>`
  /// ancestors that change what its controls submit.
  private struct Ancestry {
    var form: Int?
    var inDatalist = false
    var disabledByFieldset = false
  }

  /// Walks the tree in tree order without recursion (hostile documents nest
  /// deeply), skipping `<template>` contents (inert, HTML §4.12.3).
  func scan() -> HTMLScan {
    var scan = HTMLScan()
    var stack: [(UnsafeMutablePointer<GumboNode>, Ancestry)] = [
      (output.pointee.document, Ancestry())
    ]
    while let (node, ancestry) = stack.popLast() {
      switch node.pointee.type {
      case GUMBO_NODE_DOCUMENT:
        push(node.pointee.v.document.children, ancestry, onto: &stack)
      case GUMBO_NODE_ELEMENT:
        let element = node.pointee.v.element
        var inner = ancestry
        if element.tag_namespace == GUMBO_NAMESPACE_HTML {
          visit(element, ancestry, into: &scan)
          switch element.tag {
          case GUMBO_TAG_FORM:
            inner.form = scan.forms.count - 1
          case GUMBO_TAG_DATALIST:
            inner.inDatalist = true
          case GUMBO_TAG_FIELDSET where Self.attributes(of: element)["disabled"] != nil:
            // The first <legend> child stays enabled (HTML §4.10.18.2).
            pushFieldsetChildren(element.children, ancestry, onto: &stack)
            continue
          default:
            break
          }
        }
        push(element.children, inner, onto: &stack)
      default:
        break  // text, comments, and templates (whose contents are inert)
      }
    }
    return scan
  }

  /// Records what the page needs from one HTML element.
  private func visit(_ element: GumboElement, _ ancestry: Ancestry, into scan: inout HTMLScan) {
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
      let attributes = Self.attributes(of: element)
      scan.fetchingElements.append((.script, attributes))
      if attributes["src"] == nil, Self.text(of: element).contains("submit(") {
        scan.scriptSubmitsAForm = true
      }
    case GUMBO_TAG_BODY:
      if Self.attributes(of: element)["onload"]?.contains("submit(") == true {
        scan.scriptSubmitsAForm = true
      }
    case GUMBO_TAG_IFRAME:
      scan.fetchingElements.append((.iframe, Self.attributes(of: element)))
    case GUMBO_TAG_FORM:
      scan.forms.append(Self.attributes(of: element))
    case GUMBO_TAG_INPUT:
      scan.controls.append(control(.input, element, ancestry))
    case GUMBO_TAG_BUTTON:
      scan.controls.append(control(.button, element, ancestry))
    case GUMBO_TAG_TEXTAREA:
      var textarea = control(.textarea, element, ancestry)
      textarea.text = Self.text(of: element)
      scan.controls.append(textarea)
    case GUMBO_TAG_SELECT:
      var select = control(.select, element, ancestry)
      select.options = Self.options(of: element)
      scan.controls.append(select)
    default:
      break
    }
  }

  private func control(
    _ tag: HTMLScan.Control.Tag, _ element: GumboElement, _ ancestry: Ancestry
  ) -> HTMLScan.Control {
    HTMLScan.Control(
      tag: tag, attributes: Self.attributes(of: element), ancestorForm: ancestry.form,
      inDatalist: ancestry.inDatalist, disabledByFieldset: ancestry.disabledByFieldset)
  }

  /// A `<select>`'s `<option>` descendants in tree order ("list of options",
  /// HTML §4.10.7: children, and children of `<optgroup>` children).
  private static func options(of select: GumboElement) -> [HTMLScan.Option] {
    var options: [HTMLScan.Option] = []
    func add(_ children: GumboVector, inDisabledGroup: Bool) {
      for child in elements(children) {
        let element = child.pointee.v.element
        if element.tag == GUMBO_TAG_OPTION {
          options.append(
            HTMLScan.Option(
              attributes: attributes(of: element), text: descendantText(of: child),
              inDisabledGroup: inDisabledGroup))
        } else if element.tag == GUMBO_TAG_OPTGROUP, !inDisabledGroup {
          add(element.children, inDisabledGroup: attributes(of: element)["disabled"] != nil)
        }
      }
    }
    add(select.children, inDisabledGroup: false)
    return options
  }

  /// The HTML elements among `children`.
  private static func elements(_ children: GumboVector) -> [UnsafeMutablePointer<GumboNode>] {
    guard let data = children.data else { return [] }
    return (0..<Int(children.length)).compactMap { index in
      guard let child = data[index]?.assumingMemoryBound(to: GumboNode.self),
        child.pointee.type == GUMBO_NODE_ELEMENT,
        child.pointee.v.element.tag_namespace == GUMBO_NAMESPACE_HTML
      else { return nil }
      return child
    }
  }

  /// The text of a node's descendants, in tree order (`textContent`).
  private static func descendantText(of node: UnsafeMutablePointer<GumboNode>) -> String {
    var text = ""
    var stack = [node]
    while let node = stack.popLast() {
      switch node.pointee.type {
      case GUMBO_NODE_ELEMENT:
        let children = node.pointee.v.element.children
        guard let data = children.data else { continue }
        for index in (0..<Int(children.length)).reversed() {
          if let child = data[index] { stack.append(child.assumingMemoryBound(to: GumboNode.self)) }
        }
      case GUMBO_NODE_TEXT, GUMBO_NODE_WHITESPACE, GUMBO_NODE_CDATA:
        if let characters = node.pointee.v.text.text { text += String(cString: characters) }
      default:
        break
      }
    }
    return text
  }

  /// Pushes a disabled fieldset's children: all of them disabled, but for
  /// the first `<legend>` child.
  private func pushFieldsetChildren(
    _ children: GumboVector, _ ancestry: Ancestry,
    onto stack: inout [(UnsafeMutablePointer<GumboNode>, Ancestry)]
  ) {
    let legend = Self.elements(children).first { $0.pointee.v.element.tag == GUMBO_TAG_LEGEND }
    guard let data = children.data else { return }
    var disabled = ancestry
    disabled.disabledByFieldset = true
    for index in (0..<Int(children.length)).reversed() {
      guard let child = data[index]?.assumingMemoryBound(to: GumboNode.self) else { continue }
      stack.append((child, child == legend ? ancestry : disabled))
    }
  }

  /// Pushes a node's children in reverse, so that they pop in tree order.
  private func push(
    _ children: GumboVector, _ ancestry: Ancestry,
    onto stack: inout [(UnsafeMutablePointer<GumboNode>, Ancestry)]
  ) {
    guard let data = children.data else { return }
    for index in (0..<Int(children.length)).reversed() {
      if let child = data[index] {
        stack.append((child.assumingMemoryBound(to: GumboNode.self), ancestry))
      }
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
