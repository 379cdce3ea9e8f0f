import Foundation

extension HTMLForm {
  /// The document's forms with their controls: each control goes to its
  /// form owner (HTML §4.10.17.3 "reset the form owner"): the form its
  /// `form` attribute names by ID when it has one (none if that is not a
  /// form), else its nearest `<form>` ancestor.
  static func forms(
    _ scan: HTMLScan, documentURL: URL, resolver: HTMLURLResolver, documentEncoding: HTMLEncoding
  ) -> [HTMLForm] {
    var formByID: [String: Int] = [:]
    for (index, attributes) in scan.forms.enumerated() {
      if let id = attributes["id"], !id.isEmpty, formByID[id] == nil { formByID[id] = index }
    }
    var controls = [[HTMLFormControl]](repeating: [], count: scan.forms.count)
    for control in scan.controls {
      let owner = control.attributes["form"].map { formByID[$0] } ?? control.ancestorForm
      guard let owner else { continue }
      controls[owner].append(HTMLFormControl(control, index: controls[owner].count))
    }
    return scan.forms.enumerated().map { index, attributes in
      HTMLForm(
        index: index, attributes: attributes, controls: controls[index], documentURL: documentURL,
        resolver: resolver, documentEncoding: documentEncoding)
    }
  }

  private init(
    index: Int, attributes: HTMLScan.Attributes, controls: [HTMLFormControl], documentURL: URL,
    resolver: HTMLURLResolver, documentEncoding: HTMLEncoding
  ) {
    self.index = index
    self.documentURL = documentURL
    id = attributes["id"]
    name = attributes["name"]
    actionAttribute = attributes["action"]
    action = Self.resolveAction(attributes["action"], documentURL: documentURL, resolver: resolver)
    method = Method(attribute: attributes["method"], default: .get)
    encodingType = EncodingType(attribute: attributes["enctype"], default: .urlEncoded)
    encoding = Self.pickEncoding(attributes["accept-charset"], documentEncoding: documentEncoding)
    noValidate = attributes["novalidate"] != nil
    self.controls = controls
    self.resolver = resolver
  }

  /// An `action` or `formaction`: the document's URL when absent or empty,
  /// else the attribute resolved against the base URL (HTML §4.10.21.3
  /// steps 8–10).
  static func resolveAction(_ attribute: String?, documentURL: URL, resolver: HTMLURLResolver)
    -> URL?
  {
    guard let attribute, !attribute.isEmpty else { return documentURL }
    return resolver.resolve(attribute)
  }

  /// "Pick an encoding for the form" (HTML §4.10.21.3): the first token of
  /// `accept-charset` that is an encoding's label, else the document's
  /// encoding; then "get an output encoding" (UTF-16 and replacement give
  /// UTF-8).
  static func pickEncoding(_ acceptCharset: String?, documentEncoding: HTMLEncoding)
    -> HTMLEncoding
  {
    let declared = acceptCharset.map { HTMLText.lowercasedTokens($0) }?.lazy
      .compactMap { HTMLEncoding(label: $0) }.first
    let encoding = declared ?? documentEncoding
    return encoding.name.hasPrefix("UTF-16") || encoding.name == "replacement" ? .utf8 : encoding
  }
}

extension HTMLFormControl {
  /// A control as the tree has it, with its default value and state
  /// (HTML §4.10.5 `value` / `checked` defaults, §4.10.7 selectedness).
  init(_ control: HTMLScan.Control, index: Int) {
    let attributes = control.attributes
    let kind: Kind
    var value = attributes["value"] ?? ""
    var options: [Option] = []
    switch control.tag {
    case .input:
      let type = InputType(attribute: attributes["type"])
      kind = .input(type)
      if (type == .checkbox || type == .radio) && attributes["value"] == nil { value = "on" }
      if type != .hidden && type != .checkbox && type != .radio && type != .file {
        // The value sanitization algorithm strips newlines from text-like
        // values (HTML §4.10.5.1.2).
        value.removeAll { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
      }
    case .button:
      kind = .button(
        ButtonType(rawValue: String(attributes["type"]?.asciiLowercased ?? "")) ?? .submit)
    case .textarea:
      kind = .textarea
      value = control.text
    case .select:
      let multiple = attributes["multiple"] != nil
      kind = .select(multiple: multiple)
      options = Self.options(control.options, multiple: multiple, size: attributes["size"])
    }
    self.kind = kind
    name = attributes["name"] ?? ""
    id = attributes["id"]
    self.value = .text(value)
    isChecked = attributes["checked"] != nil
    self.options = options
    isDisabled = attributes["disabled"] != nil || control.disabledByFieldset
    inDatalist = control.inDatalist
    isReadOnly = attributes["readonly"] != nil
    isRequired = attributes["required"] != nil
    placeholder = attributes["placeholder"]
    autocomplete = attributes["autocomplete"]
    dirname = attributes["dirname"].flatMap { $0.isEmpty ? nil : $0 }
    formAction = attributes["formaction"]
    formMethod = attributes["formmethod"]
    formEnctype = attributes["formenctype"]
    self.index = index
  }

  /// A select's options with their selectedness: those marked `selected`
  /// (only the last one in a single select); in a single select shown as a
  /// drop-down with none marked, the first enabled option (HTML §4.10.7
  /// "selectedness setting algorithm").
  private static func options(_ scanned: [HTMLScan.Option], multiple: Bool, size: String?)
    -> [Option]
  {
    var options = scanned.map { option in
      let text = HTMLText.strippingAndCollapsingWhitespace(option.text)
      return Option(
        value: option.attributes["value"] ?? text,
        label: option.attributes["label"].flatMap { $0.isEmpty ? nil : $0 } ?? text,
        isSelected: option.attributes["selected"] != nil,
        isDisabled: option.attributes["disabled"] != nil || option.inDisabledGroup)
    }
    guard !multiple else { return options }
    if let last = options.lastIndex(where: \.isSelected) {
      for index in options.indices where index != last { options[index].isSelected = false }
    } else if (size.flatMap { Int($0.trimmingASCIIWhitespace) } ?? 1) <= 1,
      let first = options.firstIndex(where: { !$0.isDisabled })
    {
      options[first].isSelected = true
    }
    return options
  }
}
