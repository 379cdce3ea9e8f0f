/// One control of an ``HTMLForm``: an `<input>`, `<button>`, `<select>` or
/// `<textarea>` whose form owner is the form (HTML §4.10.17.3), with its
/// current value and state (the defaults the document wrote, until
/// ``HTMLForm/filling(_:)`` changes them).
public struct HTMLFormControl: Sendable, Equatable, CustomStringConvertible {
  /// What kind of control it is.
  public enum Kind: Sendable, Hashable {
    /// An `<input>` of this type.
    case input(InputType)
    /// A `<button>` of this type.
    case button(ButtonType)
    /// A `<select>`; `multiple` when several options may be selected.
    case select(multiple: Bool)
    /// A `<textarea>`.
    case textarea
  }

  /// The `type` states of `<input>` (HTML §4.10.5); an unknown or missing
  /// type is ``text``, as the standard's invalid value default says.
  public enum InputType: String, Sendable, Hashable, CaseIterable {
    case hidden, text, search, tel, url, email, password, date, month, week, time
    case datetimeLocal = "datetime-local"
    case number, range, color, checkbox, radio, file, submit, image, reset, button

    /// The type an attribute value names (ASCII case-insensitive).
    init(attribute: String?) {
      self =
        attribute.flatMap { Self(rawValue: String($0.trimmingASCIIWhitespace).asciiLowercased) }
        ?? .text
    }
  }

  /// The `type` states of `<button>` (HTML §4.10.6); default ``submit``.
  public enum ButtonType: String, Sendable, Hashable {
    case submit, reset, button
  }

  /// One option of a `<select>`.
  public struct Option: Sendable, Hashable {
    /// The value submitted (its `value` attribute, else its text).
    public let value: String
    /// The text shown (its `label` attribute, else its text, whitespace
    /// collapsed).
    public let label: String
    /// Whether it is selected now.
    public internal(set) var isSelected: Bool
    /// Whether it (or its `<optgroup>`) is disabled.
    public let isDisabled: Bool
  }

  /// The control's kind.
  public let kind: Kind
  /// Its `name` (empty when it has none: such a control submits nothing).
  public let name: String
  /// Its `id`, if any.
  public let id: String?
  /// Its value now: the text of a text field or a textarea; for a
  /// checkbox or radio button, the value it submits when checked (`on`
  /// unless it says otherwise); for a button, what it submits when it is
  /// the submitter. For a `<select>`, see ``options``.
  public internal(set) var value: HTMLFormValue
  /// Whether a checkbox or radio button is checked now.
  public internal(set) var isChecked: Bool
  /// A `<select>`'s options, with their selectedness now.
  public internal(set) var options: [Option]
  /// Whether the control is disabled (its own `disabled`, or a disabled
  /// `<fieldset>` around it): it is then never submitted.
  public let isDisabled: Bool
  /// Whether a `<datalist>` contains it (it is then never submitted).
  let inDatalist: Bool
  /// `readonly`, `required`, `placeholder`, `autocomplete`, as written.
  public let isReadOnly: Bool
  public let isRequired: Bool
  public let placeholder: String?
  public let autocomplete: String?
  /// The `dirname` attribute: when set, the submission also carries the
  /// text's direction under this name.
  public let dirname: String?
  /// A submit button's overrides of the form's action, method and enctype
  /// (`formaction`, `formmethod`, `formenctype`), as written.
  public let formAction: String?
  public let formMethod: String?
  public let formEnctype: String?
  /// The control's position among its form's controls (identifies it).
  public let index: Int

  /// Whether it submits the form when activated: `<input type=submit>`,
  /// `<input type=image>`, `<button>` of type submit (HTML §4.10.2
  /// "submit button").
  public var isSubmitButton: Bool {
    switch kind {
    case .input(.submit), .input(.image), .button(.submit): true
    default: false
    }
  }

  /// Whether a person would type into it: a visible text-like field
  /// (text, search, tel, url, email, password, number, dates...) or a
  /// textarea.
  public var isTextEntry: Bool {
    switch kind {
    case .textarea: true
    case .input(let type):
      ![.hidden, .checkbox, .radio, .file, .submit, .image, .reset, .button, .range, .color]
        .contains(type)
    default: false
    }
  }

  /// Whether its value is a password (never shown).
  public var isPassword: Bool { kind == .input(.password) }

  public var description: String {
    let shown = isPassword ? "<redacted>" : value.description
    return "\(kind) name=\(String(reflecting: name)) value=\(shown)"
      + (isChecked ? " checked" : "") + (isDisabled ? " disabled" : "")
  }
}
