import WebsiteDataStore

/// The value of a form field: text as the page or the caller wrote it, or a
/// secret (a password, a one-time code) that is never shown.
///
/// A secret stays in a ``WebsiteDataStore/SecretBytes`` buffer, wiped when
/// released, until the form's request body is encoded; ``description`` and
/// the mirror show `<redacted>`.
public enum HTMLFormValue: Sendable, Equatable, ExpressibleByStringLiteral,
  CustomStringConvertible, CustomReflectable
{
  /// Text.
  case text(String)
  /// A secret, as UTF-8 bytes.
  case secret(SecretBytes)

  public init(stringLiteral value: String) { self = .text(value) }

  /// A secret holding `text`'s UTF-8 bytes (the string itself cannot be
  /// wiped: prefer reading secrets into bytes).
  public static func secret(copying text: String) -> HTMLFormValue {
    var bytes = Array(text.utf8)
    return .secret(SecretBytes(consuming: &bytes))
  }

  /// Whether the value is empty.
  public var isEmpty: Bool {
    switch self {
    case .text(let text): text.isEmpty
    case .secret(let bytes): bytes.count == 0
    }
  }

  /// The text of a ``text(_:)`` value; nil for a secret.
  public var text: String? {
    if case .text(let text) = self { return text }
    return nil
  }

  public var description: String {
    switch self {
    case .text(let text): String(reflecting: text)
    case .secret: "<redacted>"
    }
  }

  public var customMirror: Mirror { Mirror(self, children: ["value": description]) }

  /// The value as a string, for encoding into a request body only.
  func revealed() -> String {
    switch self {
    case .text(let text): text
    case .secret(let bytes): bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
  }
}
