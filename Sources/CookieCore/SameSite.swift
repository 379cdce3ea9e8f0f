/// The `SameSite` attribute of a cookie (RFC 6265bis §4.1.2.7, §5.6.7).
///
/// `unspecified` (the RFC's "Default" enforcement) is kept distinct from
/// `none` everywhere: in the jar, in persistence and in exports. How an
/// unspecified cookie is enforced depends on ``SameSiteEnforcement``.
///
/// The raw values are persisted and must never change.
public enum SameSite: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// No (valid) `SameSite` attribute was given.
  case unspecified = 0
  /// `SameSite=None`: sent in every context; requires `Secure`.
  case none = 1
  /// `SameSite=Lax`: sent on same-site requests and cross-site top-level
  /// navigations with a safe method.
  case lax = 2
  /// `SameSite=Strict`: sent on same-site requests only.
  case strict = 3

  /// The lower-case name used in JSON exports and the CLI.
  public var description: String {
    switch self {
    case .unspecified: "unspecified"
    case .none: "none"
    case .lax: "lax"
    case .strict: "strict"
    }
  }

  /// Parses the lower-case export name (the inverse of ``description``).
  public init?(exportName: String) {
    guard let match = Self.allCases.first(where: { $0.description == exportName }) else {
      return nil
    }
    self = match
  }
}
