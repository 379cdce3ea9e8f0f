/// Why the URL parser rejected an input.
///
/// Each code names the WHATWG URL Standard validation error (or group of
/// errors) that makes the basic URL parser return failure
/// (§1.1 "Writing", https://url.spec.whatwg.org/#writing, the table of
/// validation errors whose "Failure" column is "Yes"), plus
/// ``Code-swift.struct/unsupportedScheme`` for schemes this engine does not handle.
///
/// The ``message`` never echoes the input: URLs can carry secrets in their
/// userinfo or query, and errors end up in logs.
///
/// Two errors are equal when their codes are equal; the message is only for
/// people.
public struct URLParseError: Error, Hashable, CustomStringConvertible {
  /// The kind of failure, stable for programs to switch on.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// A short stable name, e.g. `"invalidHost"`.
    public let name: String

    private init(_ name: String) {
      self.name = name
    }

    public var description: String { name }

    /// The input has no scheme and no base URL was given to resolve it
    /// against (missing-scheme-non-relative-URL).
    public static let missingScheme = Code("missingScheme")
    /// The scheme is not one of http, https, ws or wss (e.g. `mailto:`,
    /// `file:`, `ftp:` or `javascript:`).
    public static let unsupportedScheme = Code("unsupportedScheme")
    /// The URL has no host, e.g. `http://`, `http://:80/` or `http://user@/`
    /// (host-missing).
    public static let emptyHost = Code("emptyHost")
    /// The host holds a forbidden domain code point (after percent-decoding
    /// and IDNA), or IDNA turned it into the empty string
    /// (domain-invalid-code-point, domain-to-ASCII).
    public static let invalidHost = Code("invalidHost")
    /// UTS #46 ToASCII rejected the domain, or its percent-decoding is not
    /// UTF-8 (domain-to-ASCII).
    public static let invalidDomain = Code("invalidDomain")
    /// The host ends in a number but is not a valid IPv4 address
    /// (IPv4-too-many-parts, IPv4-non-numeric-part, IPv4-out-of-range-part).
    public static let invalidIPv4 = Code("invalidIPv4")
    /// A bracketed host is not a valid IPv6 address (IPv6-unclosed,
    /// IPv6-invalid-compression, IPv6-too-many-pieces and the rest of the
    /// IPv6- and IPv4-in-IPv6- errors).
    public static let invalidIPv6 = Code("invalidIPv6")
    /// The port is not made of ASCII digits or exceeds 65535
    /// (port-invalid, port-out-of-range).
    public static let invalidPort = Code("invalidPort")
  }

  /// The kind of failure.
  public let code: Code
  /// A human-readable explanation that never contains the input URL.
  public let message: String

  /// Creates an error with a code and an explanation.
  ///
  /// - Parameters:
  ///   - code: The kind of failure.
  ///   - message: An explanation; must not contain the URL or parts of it
  ///     that could hold secrets.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { "URLParseError.\(code.name): \(message)" }

  public static func == (lhs: URLParseError, rhs: URLParseError) -> Bool {
    lhs.code == rhs.code
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(code)
  }
}

extension URLParseError {
  static let missingScheme = URLParseError(
    .missingScheme, "the URL has no scheme and there is no base URL to resolve it against")
  static let unsupportedScheme = URLParseError(
    .unsupportedScheme, "only http, https, ws and wss URLs are supported")
  static let emptyHost = URLParseError(.emptyHost, "the URL has no host")
  static let forbiddenHostCodePoint = URLParseError(
    .invalidHost, "the host contains a forbidden domain code point")
  static let emptyDomain = URLParseError(
    .invalidHost, "the host is empty after IDNA processing")
  static let invalidDomain = URLParseError(
    .invalidDomain, "the host is not a valid internationalized domain name")
  static let invalidIPv4 = URLParseError(
    .invalidIPv4, "the host ends in a number but is not a valid IPv4 address")
  static let invalidIPv6 = URLParseError(
    .invalidIPv6, "the bracketed host is not a valid IPv6 address")
  static let unclosedIPv6 = URLParseError(
    .invalidIPv6, "the IPv6 address is missing its closing bracket")
  static let invalidPort = URLParseError(.invalidPort, "the port is not a decimal number")
  static let portOutOfRange = URLParseError(.invalidPort, "the port is greater than 65535")
}
