import Foundation

/// A `<form>` of a document, with its controls, as the HTML Standard's form
/// submission sees it (§4.10.21): what it submits, where, how.
///
/// Read the fields, change them with ``filling(_:)``, then submit it with
/// ``WebPage/submit(_:using:)`` (a navigation the page starts, so SameSite
/// rules see a same-site or cross-site POST as a browser would), or build
/// the request with ``submission(using:)``.
///
/// ```swift
/// let login = try page.document!.forms[0].filling([
///   "username": "alice", "password": .secret(passwordBytes),
/// ])
/// for try await _ in page.submit(login) {}
/// ```
public struct HTMLForm: Sendable, Equatable {
  /// The form's method (`method` attribute, HTML §4.10.18.6).
  public enum Method: String, Sendable, Hashable {
    case get, post
    /// Closes a dialog; submits nothing.
    case dialog

    init(attribute: String?, default fallback: Method) {
      self =
        attribute.flatMap { Self(rawValue: String($0.trimmingASCIIWhitespace).asciiLowercased) }
        ?? fallback
    }
  }

  /// How the entries are encoded (`enctype`, HTML §4.10.18.6).
  public enum EncodingType: String, Sendable, Hashable {
    case urlEncoded = "application/x-www-form-urlencoded"
    case multipart = "multipart/form-data"
    case plainText = "text/plain"

    init(attribute: String?, default fallback: EncodingType) {
      self =
        attribute.flatMap { Self(rawValue: String($0.trimmingASCIIWhitespace).asciiLowercased) }
        ?? fallback
    }
  }

  /// The form's position among the document's forms.
  public let index: Int
  /// The URL of the document the form belongs to (the submission's
  /// initiator).
  public let documentURL: URL
  /// `id` and `name`, if any.
  public let id: String?
  public let name: String?
  /// The `action` attribute, as written (nil when absent).
  public let actionAttribute: String?
  /// The action resolved against the document's base URL; the document's
  /// URL when the attribute is absent or empty (HTML §4.10.21.3 step 8);
  /// nil when it is not a valid URL.
  public let action: URL?
  /// The method and encoding type.
  public let method: Method
  public let encodingType: EncodingType
  /// The character encoding the entries are encoded in: the first label of
  /// `accept-charset` that names one, else the document's; UTF-8 instead of
  /// UTF-16 (HTML §4.10.21.3 "pick an encoding for the form").
  public let encoding: HTMLEncoding
  /// `novalidate`.
  public let noValidate: Bool
  /// The controls whose form owner is this form, in tree order.
  public internal(set) var controls: [HTMLFormControl]
  /// How the document resolves `formaction` (its base URL).
  let resolver: HTMLURLResolver

  /// The submit buttons, in tree order (the first is the default button,
  /// which implicit submission uses).
  public var submitButtons: [HTMLFormControl] { controls.filter(\.isSubmitButton) }

  /// The first control named `name`.
  public subscript(name: String) -> HTMLFormControl? { controls.first { $0.name == name } }

  /// The text-entry fields a person would fill in (visible, enabled,
  /// writable), in tree order: what a login driver prompts for.
  public var visibleTextFields: [HTMLFormControl] {
    controls.filter { $0.isTextEntry && !$0.isDisabled && !$0.isReadOnly && !$0.name.isEmpty }
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.index == rhs.index && lhs.documentURL == rhs.documentURL && lhs.controls == rhs.controls
      && lhs.action == rhs.action && lhs.method == rhs.method
      && lhs.encodingType == rhs.encodingType && lhs.encoding == rhs.encoding
  }
}
