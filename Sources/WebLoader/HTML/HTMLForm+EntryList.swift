extension HTMLForm {
  /// One entry of the entry list: a name and a string, or a file.
  enum Entry {
    case string(String, HTMLFormValue)
    /// A file input's file (always the empty file with no name: a headless
    /// page has no files to choose).
    case emptyFile(String)

    var name: String {
      switch self {
      case .string(let name, _), .emptyFile(let name): name
      }
    }
  }

  /// "Constructing the entry list" (HTML §4.10.21.4) for a submission by
  /// `submitter`: each enabled control with a name, in tree order;
  /// checkboxes and radio buttons only when checked; a `<select>`'s
  /// enabled selected options; only the submitter among the buttons (an
  /// image button as `name.x` and `name.y` at 0, 0); `_charset_` hidden
  /// fields as the encoding's name; `dirname` as `ltr`.
  func entryList(submitter: HTMLFormControl?) -> [Entry] {
    var entries: [Entry] = []
    for control in controls {
      if control.inDatalist || control.isDisabled { continue }
      if control.isButton && control.index != submitter?.index { continue }
      if case .input(let type) = control.kind, type == .checkbox || type == .radio,
        !control.isChecked
      {
        continue
      }
      if control.kind == .input(.image) {
        let prefix = control.name.isEmpty ? "" : control.name + "."
        entries.append(.string(prefix + "x", "0"))
        entries.append(.string(prefix + "y", "0"))
        continue
      }
      guard !control.name.isEmpty else { continue }
      switch control.kind {
      case .select:
        for option in control.options where option.isSelected && !option.isDisabled {
          entries.append(.string(control.name, .text(option.value)))
        }
      case .input(.file):
        entries.append(.emptyFile(control.name))
      case .input(.hidden) where control.name.asciiLowercased == "_charset_":
        entries.append(.string(control.name, .text(encoding.name)))
      default:
        entries.append(.string(control.name, control.value))
      }
      if let dirname = control.dirname, control.isTextEntry {
        entries.append(.string(dirname, "ltr"))
      }
    }
    return entries
  }
}

extension HTMLFormControl {
  /// Whether it is a button (HTML §4.10.21.4 step 5.1: buttons other than
  /// the submitter are skipped): `<button>`, and inputs of type submit,
  /// image, reset and button.
  var isButton: Bool {
    switch kind {
    case .button, .input(.submit), .input(.image), .input(.reset), .input(.button): true
    default: false
    }
  }
}
