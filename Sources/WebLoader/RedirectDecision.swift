/// What to do with a redirect, decided by the caller of
/// ``WebLoaderSession/load(_:context:onRedirect:)`` for each one.
public enum RedirectDecision: Sendable, Hashable {
  /// Follow it (within the redirect limit).
  case follow
  /// Do not follow: the redirect response becomes the final response (for
  /// example, to catch an OAuth callback URL).
  case stop
  /// Abandon the load: it fails with ``LoadError/Code/cancelled``.
  case cancel
}
