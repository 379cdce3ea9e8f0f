/// Why an HTML document could not be read.
///
/// Equality compares the code only.
public struct HTMLDocumentError: Error, Hashable, CustomStringConvertible {
  /// What went wrong, as a stable, extensible code.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// The C library has no decoder for the document's encoding.
    public static let unsupportedEncoding = Code("unsupported-encoding")
    /// The HTML parser (Gumbo) returned no tree (out of memory).
    public static let parserFailed = Code("parser-failed")
  }

  /// The kind of failure.
  public let code: Code
  /// A human-readable message.
  public let message: String

  /// Creates an error.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
