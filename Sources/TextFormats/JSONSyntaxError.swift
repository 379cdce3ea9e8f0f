/// Text that is not JSON (RFC 8259): where, when Foundation says, and never
/// the text itself (it may hold cookie values).
package struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
  /// "the file is not valid JSON", with the line and column when known.
  package var message: String

  package init(message: String) { self.message = message }

  package var description: String { message }
}
