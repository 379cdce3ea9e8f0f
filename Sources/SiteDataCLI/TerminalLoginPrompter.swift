import WebsiteData

/// Asks the person at the terminal for what `--field` does not give on a
/// provider's page: a field's value (a password without echo), or which
/// submit button to press. Prompts go to stderr; answers are read from stdin.
@MainActor final class TerminalLoginPrompter: OAuthLoginPrompting {
  func value(for field: HTMLFormControl, in form: HTMLForm, on page: WebPage) async
    -> HTMLFormValue?
  {
    let label = field.placeholder.map { "\(field.name) (\($0))" } ?? field.name
    let prompt = (page.title.isEmpty ? "" : "[\(page.title)] ") + label + ": "
    guard
      let line = try? SecretInput.lineFromStdin(
        prompt: prompt, naming: field.name, echo: !field.isPassword)
    else { return nil }
    if field.isPassword { return .secret(line) }
    return .text(line.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })
  }

  func button(among buttons: [HTMLFormControl], in form: HTMLForm, on page: WebPage) async
    -> HTMLFormControl?
  {
    let choices = buttons.enumerated().map { index, button in
      "  \(index + 1)) \(button.value.text ?? button.name)\n"
    }.joined()
    let prompt =
      "\(page.title.isEmpty ? "The page" : page.title) asks you to choose:\n" + choices
      + "Choice [1-\(buttons.count)]: "
    guard let line = try? SecretInput.lineFromStdin(prompt: prompt, naming: "choice", echo: true),
      let choice = Int(line.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }),
      buttons.indices.contains(choice - 1)
    else { return nil }
    return buttons[choice - 1]
  }
}
