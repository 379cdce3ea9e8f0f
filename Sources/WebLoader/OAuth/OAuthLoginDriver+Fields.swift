extension OAuthLoginDriver {
  /// One step of a field-map driver: which form of `page` to submit, filled,
  /// and with which button.
  struct FieldStep {
    let values: [String: HTMLFormValue]
    let prompter: (any OAuthLoginPrompting)?

    /// The form to submit and its submitter. `submitted` holds what earlier
    /// steps submitted (page path, action, control names), so that a form
    /// that comes back is not submitted again.
    @MainActor func submission(on page: WebPage, submitted: inout Set<String>)
      async throws(OAuthError) -> (HTMLForm, HTMLFormControl?)
    {
      let stop = { (reason: String) in
        OAuthError(.loginDidNotComplete, reason, pageURL: page.url, pageTitle: page.title)
      }
      guard let form = chooseForm(page.document?.forms ?? []) else {
        throw stop("the page has no form to fill")
      }
      let signature =
        [page.url?.path ?? "", form.action?.absoluteString ?? ""]
        .joined(separator: " ") + " " + form.controls.map(\.name).sorted().joined(separator: ",")
      guard submitted.insert(signature).inserted else {
        throw stop("the page's form came back after it was submitted (wrong credentials?)")
      }
      var fill: [String: HTMLFormValue] = [:]
      for control in form.controls where !control.isButton {
        if let value = values[control.name] { fill[control.name] = value }
      }
      for field in form.visibleTextFields
      where fill[field.name] == nil && field.value.isEmpty && (field.isRequired || field.isPassword)
      {
        guard let value = await prompter?.value(for: field, in: form, on: page) else {
          throw stop("the page asks for \(field.name), which the field map does not give")
        }
        fill[field.name] = value
      }
      let filled: HTMLForm
      do {
        filled = try form.filling(fill)
      } catch {
        throw stop("the page's form cannot be filled (\(error.code))")
      }
      let buttons = filled.submitButtons
      if let chosen = buttons.first(where: { button in
        values[button.name].map { $0.isEmpty || $0 == button.value } ?? false
      }) {
        return (filled, chosen)
      }
      if buttons.count <= 1 { return (filled, buttons.first) }
      if let prompter, let chosen = await prompter.button(among: buttons, in: filled, on: page) {
        return (filled, chosen)
      }
      let labels = buttons.map { $0.value.text ?? $0.name }.joined(separator: ", ")
      throw stop(
        "the page offers several buttons (\(labels)): name one in the field map (NAME=VALUE)")
    }

    /// The form the map fills (one of its text fields or buttons is named),
    /// else the one with a password field, else the only form.
    private func chooseForm(_ forms: [HTMLForm]) -> HTMLForm? {
      forms.first { form in form.visibleTextFields.contains { values[$0.name] != nil } }
        ?? forms.first { form in form.submitButtons.contains { values[$0.name] != nil } }
        ?? forms.first { form in form.controls.contains(where: \.isPassword) }
        ?? (forms.count == 1 ? forms.first : nil)
    }
  }
}
