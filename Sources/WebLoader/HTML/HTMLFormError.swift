/// Why a form cannot be filled or submitted as asked. The message names
/// fields and buttons, never a value.
public struct HTMLFormError: Error, Hashable, CustomStringConvertible {
  /// What went wrong, as a stable, extensible code.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// No control of the form has the name given to ``HTMLForm/filling(_:)``.
    public static let noSuchField = Code("no-such-field")
    /// The value does not fit the control: a `<select>` without such an
    /// option, a radio group without such a value, a file input, a button.
    public static let valueDoesNotFit = Code("value-does-not-fit")
    /// The submitter is not a submit button of this form.
    public static let notASubmitButton = Code("not-a-submit-button")
    /// The form cannot be submitted as a request: its action is not a valid
    /// http(s) URL, or its method is `dialog`.
    public static let notSubmittable = Code("not-submittable")
  }

  /// The kind of failure.
  public let code: Code
  /// A human-readable message; never a field's value.
  public let message: String

  init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { "\(code): \(message)" }
}
