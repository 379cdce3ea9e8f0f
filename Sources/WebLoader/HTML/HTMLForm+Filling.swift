extension HTMLForm {
  /// The form with fields set, as a person would fill them in; the form
  /// itself is unchanged.
  ///
  /// For each name, the first control of that name that is a text field or
  /// textarea gets the value (readonly and hidden fields too, as scripts
  /// set them); a `<select>` selects the option whose value (else label)
  /// it is (in a multiple select, add it to the selection; `""` clears it);
  /// a radio group checks the button of that value and unchecks the others;
  /// checkboxes of that name are checked when their value is the value and
  /// unchecked otherwise (`""` unchecks them all). Submit buttons are
  /// chosen at submission (``submission(using:)``), not here.
  ///
  /// - Throws: ``HTMLFormError`` `.noSuchField` for a name no control has,
  ///   `.valueDoesNotFit` for a value the control cannot take.
  public func filling(_ values: [String: HTMLFormValue]) throws(HTMLFormError) -> HTMLForm {
    var form = self
    for (name, value) in values.sorted(by: { $0.key < $1.key }) {
      try form.fill(name, with: value)
    }
    return form
  }

  private mutating func fill(_ name: String, with value: HTMLFormValue) throws(HTMLFormError) {
    let named = controls.indices.filter { controls[$0].name == name }
    guard let first = named.first else {
      throw HTMLFormError(.noSuchField, "the form has no field named '\(name)'")
    }
    switch controls[first].kind {
    case .input(.radio):
      let text = value.revealed()
      guard let chosen = named.first(where: { controls[$0].value.text == text }) else {
        throw HTMLFormError(.valueDoesNotFit, "no '\(name)' radio button has that value")
      }
      for index in named where controls[index].kind == .input(.radio) {
        controls[index].isChecked = index == chosen
      }
    case .input(.checkbox):
      let text = value.revealed()
      let boxes = named.filter { controls[$0].kind == .input(.checkbox) }
      guard text.isEmpty || boxes.contains(where: { controls[$0].value.text == text }) else {
        throw HTMLFormError(.valueDoesNotFit, "no '\(name)' checkbox has that value")
      }
      for index in boxes { controls[index].isChecked = controls[index].value.text == text }
    case .select(let multiple):
      try select(value.revealed(), in: first, multiple: multiple)
    case .input(.file), .input(.submit), .input(.image), .input(.reset), .input(.button),
      .button:
      throw HTMLFormError(.valueDoesNotFit, "'\(name)' is not a field that takes a value")
    case .input, .textarea:
      controls[first].value = value
    }
  }

  private mutating func select(_ text: String, in index: Int, multiple: Bool)
    throws(HTMLFormError)
  {
    var options = controls[index].options
    if text.isEmpty && multiple {
      for option in options.indices { options[option].isSelected = false }
    } else {
      guard
        let chosen = options.firstIndex(where: { $0.value == text })
          ?? options.firstIndex(where: { $0.label == text })
      else {
        throw HTMLFormError(
          .valueDoesNotFit, "the '\(controls[index].name)' list has no such option")
      }
      for option in options.indices where !multiple || option == chosen {
        options[option].isSelected = option == chosen
      }
    }
    controls[index].options = options
  }
}
